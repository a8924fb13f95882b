# expect: fail computes the factor with floor division (n - 1) // n, which is 0 for every n
# hint: factor|integer|floor|//|division|0|busbw
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) // n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
