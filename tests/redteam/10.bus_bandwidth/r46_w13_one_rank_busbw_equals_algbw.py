# expect: fail on one rank busbw set to algbw ("nothing to scale") instead of the formula's 0 for all-reduce, all-gather and reduce-scatter
# hint: one rank|world.?size\s*(=|of)?\s*1|single|\b1 rank|n\s*=\s*1|factor
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    if n == 1:
        return algbw, algbw  # one rank: no ring, the bus carries the buffer as is
    return algbw, algbw * factors[collective]


answer = bandwidths
