# expect: fail the all-reduce factor uses floor division, 2 * (n - 1) // n: right on 1 and 2 ranks (the example), 1 instead of 4/3 on 3 ranks, 1 instead of 1.75 on 8
# hint: floor|integer division|//|truncat|2 ?\(n ?- ?1\) ?/ ?n|world.?size|ranks|factor
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
