# expect: fail counts every rank's buffer in the algorithm bandwidth (nbytes * world_size / seconds) for all_reduce and broadcast
# hint: algbw|nbytes ?/ ?seconds|world.?size|every rank|n times|per rank
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective in ("all_reduce", "broadcast"):
        moved = nbytes * n  # every rank holds the buffer
    elif collective in ("all_gather", "reduce_scatter"):
        moved = nbytes  # already the n ranks' slices together
    else:
        raise ValueError(f"unknown collective {collective!r}")
    factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(collective, (n - 1) / n)
    algbw = moved / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
