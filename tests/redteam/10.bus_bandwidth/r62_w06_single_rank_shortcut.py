# expect: fail returns busbw 0 for any collective on one rank before looking at its name: a one-rank broadcast should keep factor 1 (busbw = algbw), and an unknown name on one rank no longer raises ValueError
# hint: one rank|single|world.?size.?(=|==|of) ?1|n ?= ?1|broadcast|ValueError|unknown|factor
def bandwidths(nbytes, seconds, world_size, collective):
    algbw = nbytes / seconds / 1e9
    if world_size == 1:  # one rank: nothing crosses a link
        return algbw, 0.0
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
