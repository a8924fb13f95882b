# expect: fail reduce_scatter uses the all-reduce factor 2 (n - 1) / n instead of (n - 1) / n
# hint: reduce_scatter|reduce-scatter|scatter|factor|\(n ?- ?1\) ?/ ?n
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    algbw = nbytes / seconds / 1e9
    if collective in ("all_reduce", "reduce_scatter"):  # both reduce
        return algbw, algbw * 2 * (n - 1) / n
    if collective == "all_gather":
        return algbw, algbw * (n - 1) / n
    if collective == "broadcast":
        return algbw, algbw
    raise ValueError(f"unknown collective {collective!r}")


answer = bandwidths
