# expect: fail returns early for world_size == 1 (nothing crosses a link) before checking the collective, so an unknown collective on one rank returns a pair instead of raising ValueError. Shows only with world_size 1.
# hint: (one|single|1) rank|world_size (==|of|is) 1|early return|before (check|validat)|(unknown|invalid|other) (collective|name)|valueerror
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    algbw = nbytes / seconds / 1e9
    if world_size == 1:  # no other rank: only a broadcast still "moves" its buffer
        return algbw, algbw if collective == "broadcast" else 0.0
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    return algbw, algbw * factor


answer = bandwidths
