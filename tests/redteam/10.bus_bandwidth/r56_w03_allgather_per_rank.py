# expect: fail all_gather busbw uses factor (n - 1) instead of (n - 1) / n, as if nbytes were each rank's input
# hint: all_gather|gather|factor|\(n ?- ?1\) ?/ ?n|per.rank|input
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    algbw = nbytes / seconds / 1e9
    if collective == "all_reduce":
        return algbw, algbw * 2 * (n - 1) / n
    if collective == "all_gather":
        # each rank receives the n - 1 slices it lacks
        return algbw, algbw * (n - 1)
    if collective == "reduce_scatter":
        return algbw, algbw * (n - 1) / n
    if collective == "broadcast":
        return algbw, algbw
    raise ValueError(f"unknown collective {collective!r}")


answer = bandwidths
