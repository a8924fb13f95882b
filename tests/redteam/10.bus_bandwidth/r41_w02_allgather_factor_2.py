# expect: fail all_gather/reduce_scatter given the all-reduce factor 2 (n - 1) / n
# hint: (all_gather|all-gather|reduce_scatter|reduce-scatter|\(n ?- ?1\) ?/ ?n|factor)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = 2 * (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
