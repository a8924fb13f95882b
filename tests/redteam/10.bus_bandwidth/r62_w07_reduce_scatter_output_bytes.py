# expect: fail treats a reduce-scatter's nbytes as each rank's output and multiplies it by n to get the buffer, so reduce_scatter's algbw and busbw come out n times too large
# hint: reduce.?scatter|input|output|nbytes|n times|world.?size|algbw|buffer
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        size, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        size, factor = nbytes, (n - 1) / n
    elif collective == "reduce_scatter":
        size, factor = nbytes * n, (n - 1) / n  # the input is n outputs
    elif collective == "broadcast":
        size, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = size / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
