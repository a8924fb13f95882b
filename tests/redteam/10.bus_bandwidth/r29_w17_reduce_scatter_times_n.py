# expect: fail reads nbytes of a reduce_scatter as each rank's output and counts n times it (algbw = n * nbytes / seconds), where the prompt says nbytes already is the input, n times the output: both numbers n times too large for reduce_scatter with n > 1.
# hint: reduce_scatter|input|output|(times|multipl(y|ies|ied)( by)?) (n|world_size|the number of ranks)|n \* nbytes|nbytes \* n
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "reduce_scatter":
        total = nbytes * n  # every rank reduces n slices of the size it keeps
        factor = (n - 1) / n
    elif collective == "all_gather":
        total, factor = nbytes, (n - 1) / n
    elif collective == "all_reduce":
        total, factor = nbytes, 2 * (n - 1) / n
    elif collective == "broadcast":
        total, factor = nbytes, 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = total / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
