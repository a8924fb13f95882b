# expect: fail raises ValueError for world_size 1, which is a valid input (the factors give busbw 0, or algbw for broadcast)
# hint: world.?size|one rank|single rank|n ?= ?1|\b1\b|raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if world_size < 2:
        raise ValueError(f"a collective needs at least 2 ranks, got world_size={world_size}")
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
