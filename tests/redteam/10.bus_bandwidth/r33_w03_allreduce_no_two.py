# expect: fail uses (n-1)/n for all_reduce, forgetting the factor 2
# hint: all_reduce|2 ?\(n ?- ?1\)|factor|two|twice
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective in ("all_reduce", "all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
