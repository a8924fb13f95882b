# expect: fail the all-reduce factor computed with floor division, 2 * (n - 1) // n: right on 2 ranks only (1 instead of 1.5 on 4)
# hint: all.?reduce|factor|2\s*\(n\s*-\s*1\)|integer|floor|//
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
