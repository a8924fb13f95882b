# expect: fail all_gather: nbytes taken as each rank's input, algbw multiplied by n
# hint: all.?gather|gathered|each rank.s input|times n|n times
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        total, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        total, factor = nbytes * n, (n - 1) / n  # the result is n times each rank's input
    elif collective == "reduce_scatter":
        total, factor = nbytes, (n - 1) / n
    elif collective == "broadcast":
        total, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = total / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
