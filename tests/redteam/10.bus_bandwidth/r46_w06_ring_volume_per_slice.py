# expect: fail all-gather and reduce-scatter busbw as algbw * (n - 1) (n - 1 slices per rank, each counted as nbytes): n times too much
# hint: all.?gather|reduce.?scatter|factor|\(n\s*-\s*1\)\s*/\s*n
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = n - 1  # each rank receives the n - 1 slices it lacks
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
