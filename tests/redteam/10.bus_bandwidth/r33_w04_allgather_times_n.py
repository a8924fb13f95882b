# expect: fail treats nbytes as each rank's input for all_gather and multiplies it by n before computing algbw
# hint: all_gather|nbytes|gathered|result|input|algbw
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        total, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        total, factor = nbytes * n, (n - 1) / n  # every rank ends with n inputs
    elif collective == "reduce_scatter":
        total, factor = nbytes, (n - 1) / n
    elif collective == "broadcast":
        total, factor = nbytes, 1.0
    else:
        raise ValueError(collective)
    algbw = total / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
