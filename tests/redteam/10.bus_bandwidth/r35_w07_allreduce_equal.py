# expect: fail returns busbw = algbw for all_reduce, true only on two ranks (the example's), ignoring the 2(n-1)/n factor for other world sizes.
# hint: all_reduce|world_size|2 ?\(n ?- ?1\)|factor|ranks
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    algbw = nbytes / seconds / 1e9
    if collective == "all_reduce":
        return algbw, algbw  # each rank receives the whole buffer once: busbw = algbw
    if collective in ("all_gather", "reduce_scatter"):
        return algbw, algbw * (n - 1) / n
    if collective == "broadcast":
        return algbw, algbw
    raise ValueError(f"unknown collective {collective!r}")

answer = bandwidths
