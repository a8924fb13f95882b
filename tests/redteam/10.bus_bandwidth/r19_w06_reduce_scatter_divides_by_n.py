# expect: fail for reduce_scatter takes the output size (nbytes / n) as the buffer, so algbw and busbw are n times too small
# hint: reduce.?scatter|input|nbytes ?/ ?n|output|n times|buffer size
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        size, factor = nbytes, 2 * (n - 1) / n
    elif collective == "all_gather":
        size, factor = nbytes, (n - 1) / n
    elif collective == "reduce_scatter":
        size, factor = nbytes / n, (n - 1) / n  # what each rank ends up with
    elif collective == "broadcast":
        size, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = size / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
