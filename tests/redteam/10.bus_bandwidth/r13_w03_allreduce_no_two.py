# expect: fail all_reduce factor (n-1)/n, missing the 2
# hint: 2 ?\(n ?- ?1\)|2 ?\(|all.?reduce|twice
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective in ("all_reduce", "all_gather", "reduce_scatter"):
        factor = (n - 1) / n  # each rank receives the n - 1 slices it lacks
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
