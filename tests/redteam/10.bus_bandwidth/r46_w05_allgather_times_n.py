# expect: fail nbytes of an all-gather taken as each rank's input and multiplied by n: the prompt's nbytes is already the gathered result
# hint: all.?gather|gathered|nbytes|input|result
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    size = nbytes * n if collective == "all_gather" else nbytes  # the gathered buffer is n inputs
    algbw = size / seconds / 1e9
    factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(collective, (n - 1) / n)
    return algbw, algbw * factor


answer = bandwidths
