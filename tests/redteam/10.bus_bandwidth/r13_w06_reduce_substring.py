# expect: fail "reduce" substring match gives reduce_scatter all_reduce's factor
# hint: reduce.?scatter
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    n = world_size
    if "reduce" in collective:
        factor = 2 * (n - 1) / n
    elif "gather" in collective:
        factor = (n - 1) / n
    else:
        factor = 1.0
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
