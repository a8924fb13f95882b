# expect: fail all_reduce factor (n - 1) / n: forgot the 2 (one of reduce-scatter + all-gather)
# hint: (all_reduce|all-reduce|2 ?\(n ?- ?1\)|factor|twice)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
