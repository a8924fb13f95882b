# expect: fail broadcast given (n - 1) / n ("the root already has its copy") instead of 1
# hint: broadcast|factor|\b1\b
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter", "broadcast"):
        factor = (n - 1) / n  # every rank but the root receives the buffer
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
