# expect: fail off by one in the factor: 2 n / (n + 1) and n / (n + 1), taking n as the number of peers rather than ranks
# hint: (factor|2 ?\(n ?- ?1\)|n ?- ?1|all_reduce|all-reduce|ranks)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * n / (n + 1)
    elif collective in ("all_gather", "reduce_scatter"):
        factor = n / (n + 1)
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
