# expect: fail an unknown collective raises KeyError (plain dict lookup) instead of ValueError
# hint: ValueError|KeyError|unknown|other collective|raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factor = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }[collective]
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
