# expect: fail reduce-scatter given the all-reduce factor 2 (n - 1) / n ("it reduces too") instead of (n - 1) / n
# hint: reduce.?scatter|factor|\(n\s*-\s*1\)\s*/\s*n
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective in ("all_reduce", "reduce_scatter"):  # both reduce
        factor = 2 * (n - 1) / n
    elif collective == "all_gather":
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
