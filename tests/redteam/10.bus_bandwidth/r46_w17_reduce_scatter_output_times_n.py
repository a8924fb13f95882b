# expect: fail nbytes of a reduce-scatter taken as each rank's output and multiplied by n: the prompt's nbytes is already the input
# hint: reduce.?scatter|nbytes|input|output
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    size = nbytes * n if collective == "reduce_scatter" else nbytes  # the input is n outputs
    algbw = size / seconds / 1e9
    factor = {"all_reduce": 2 * (n - 1) / n, "broadcast": 1.0}.get(collective, (n - 1) / n)
    return algbw, algbw * factor


answer = bandwidths
