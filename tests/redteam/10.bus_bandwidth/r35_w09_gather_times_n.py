# expect: fail treats all_gather's nbytes as each rank's input and multiplies it by n, though the prompt says nbytes is already the gathered result.
# hint: all_gather|nbytes|result|gathered|input|times n
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_gather":
        size, factor = nbytes * n, (n - 1) / n  # the result is n times each rank's buffer
    elif collective == "reduce_scatter":
        size, factor = nbytes, (n - 1) / n
    elif collective == "all_reduce":
        size, factor = nbytes, 2 * (n - 1) / n
    elif collective == "broadcast":
        size, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = size / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
