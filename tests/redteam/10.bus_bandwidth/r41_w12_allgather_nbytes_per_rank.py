# expect: fail treats nbytes of an all_gather / reduce_scatter as each rank's slice: algbw scaled by n
# hint: (nbytes|algbw|all_gather|all-gather|reduce_scatter|reduce-scatter|gathered|input)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = (nbytes * n if collective in ('all_gather', 'reduce_scatter') else nbytes) / seconds / 1e9
    return algbw, algbw * factor
