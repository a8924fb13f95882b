# expect: fail an unknown collective falls back to busbw = algbw instead of raising ValueError
# hint: (ValueError|unknown|other collective|raise)
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
        factor = 1.0  # treat anything else like a broadcast
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
