# expect: fail bytes per second returned (as the chapter's all_reduce_bandwidth helper does), not GB/s
# hint: GB/s|1e9|10\s*\*\*\s*9|unit|bytes per second|giga
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds  # divide by 1e9 when printing, as the chapter's table does
    return algbw, algbw * factors[collective]


answer = bandwidths
