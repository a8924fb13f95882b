# expect: fail takes all_gather's nbytes as each rank's input and multiplies it by n for algbw (the table says nbytes already is the gathered result)
# hint: all_gather|gather|algbw|gathered|input
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        total, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        total, factor = nbytes * n, (n - 1) / n  # the result is n times each input
    elif collective == "reduce_scatter":
        total, factor = nbytes, (n - 1) / n
    elif collective == "broadcast":
        total, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = total / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
