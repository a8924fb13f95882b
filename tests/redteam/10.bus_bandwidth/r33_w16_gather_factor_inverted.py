# expect: fail uses n/(n-1) (the inverse) for all_gather and reduce_scatter
# hint: all_gather|reduce_scatter|factor|\(n ?- ?1\) ?/ ?n
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = n / (n - 1)
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
