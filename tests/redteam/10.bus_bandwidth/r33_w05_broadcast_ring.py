# expect: fail uses (n-1)/n for broadcast instead of 1
# hint: broadcast|factor|\b1\b
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter", "broadcast"):
        factor = (n - 1) / n
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
