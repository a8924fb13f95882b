# expect: fail gives reduce_scatter the all_reduce factor 2(n-1)/n
# hint: reduce_scatter|factor
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective in ("all_reduce", "reduce_scatter"):  # both reduce
        factor = 2 * (n - 1) / n
    elif collective == "all_gather":
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
