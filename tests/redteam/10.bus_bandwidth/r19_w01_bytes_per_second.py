# expect: fail returns bytes per second: never divides by 10**9 to get GB/s
# hint: GB/s|10\*\*9|1e9|10\^9|giga|units?|bytes per second
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds  # the rate
    return algbw, algbw * factor


answer = bandwidths
