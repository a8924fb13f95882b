# expect: fail treats the time as milliseconds (divides seconds by 1000), so both bandwidths are 1000 times too large
# hint: seconds|millisecond|\bms\b|1e3|1000|time unit|units?
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    t = seconds / 1e3  # the timings are in ms
    algbw = nbytes / t / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
