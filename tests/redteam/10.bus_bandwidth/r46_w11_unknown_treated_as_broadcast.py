# expect: fail any other collective falls through to factor 1 (an else branch) instead of raising ValueError
# hint: ValueError|unknown|collective|raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    else:  # broadcast, and anything point to point
        factor = 1.0
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
