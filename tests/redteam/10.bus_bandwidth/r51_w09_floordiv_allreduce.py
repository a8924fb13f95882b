# expect: fail all_reduce factor written 2 * (n - 1) // n: integer division, right on 2 ranks only (1 instead of 1.5 on 4, 1.75 on 8)
# hint: all_reduce|integer|floor|//|factor|2 ?\(n ?- ?1\)
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
