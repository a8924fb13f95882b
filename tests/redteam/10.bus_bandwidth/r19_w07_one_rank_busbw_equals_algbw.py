# expect: fail special-cases world_size 1 as busbw = algbw, where the factors give 0 for all_reduce, all_gather and reduce_scatter
# hint: world.?size ?(==|=|of) ?1|one rank|single rank|n ?= ?1|factor|zero|\b0\b
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    n = world_size
    if n == 1:  # nothing to exchange: the bus runs at the algorithm's rate
        return algbw, algbw
    factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(collective, (n - 1) / n)
    return algbw, algbw * factor


answer = bandwidths
