# expect: fail an unknown collective raises KeyError (not ValueError)
# hint: (ValueError|KeyError|unknown|other collective|raise)
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
        raise KeyError(collective)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
