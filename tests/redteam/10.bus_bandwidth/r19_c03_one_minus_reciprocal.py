# expect: pass factor written as 1 - 1/n (doubled for all_reduce), GB as 1e9 applied first, float() on every input
# hint: 
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    gigabytes = float(nbytes) / 1e9
    n = float(world_size)
    ring = 1.0 - 1.0 / n  # the share of the result a rank lacks
    if collective == "all_reduce":
        factor = 2.0 * ring  # a reduce-scatter, then an all-gather
    elif collective == "all_gather" or collective == "reduce_scatter":
        factor = ring
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError("collective must be 'all_reduce', 'all_gather', 'reduce_scatter' or "
                         f"'broadcast', not {collective!r}")
    algbw = gigabytes / float(seconds)
    return (algbw, factor * algbw)


answer = bandwidths
