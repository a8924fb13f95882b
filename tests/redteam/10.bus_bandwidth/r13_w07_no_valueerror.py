# expect: fail unknown collective falls back to factor 1 instead of raising ValueError
# hint: valueerror|raise|unknown|other collective|invalid
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factor = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
    }.get(collective, 1.0)  # broadcast, and anything else, crosses each link once
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
