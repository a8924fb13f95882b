# expect: fail takes n as the number of other ranks (world_size - 1) in the factor
# hint: world_size|\bn\b|rank|factor|busbw
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size - 1  # the peers each rank talks to
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n if n else 0.0
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n if n else 0.0
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
