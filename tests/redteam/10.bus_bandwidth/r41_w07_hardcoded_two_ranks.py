# expect: fail hard-codes 2 ranks: all_reduce factor 1 (= 2 (2-1)/2), all_gather 1/2
# hint: (world_size|n ranks|\bn\b|ranks|factor|2 ?\(n ?- ?1\))
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 1.0
    elif collective in ("all_gather", "reduce_scatter"):
        factor = 0.5
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
