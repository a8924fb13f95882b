# expect: fail the factor written with n - 1 taken as the world size (a "ring of n - 1 peers"): 2 (n - 2) / (n - 1) and the like
# hint: factor|world.?size|n\s*-\s*1|ranks
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    peers = n - 1  # the ring is made of the other ranks
    factors = {
        "all_reduce": 2 * (peers - 1) / peers if peers else 0.0,
        "all_gather": (peers - 1) / peers if peers else 0.0,
        "reduce_scatter": (peers - 1) / peers if peers else 0.0,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
