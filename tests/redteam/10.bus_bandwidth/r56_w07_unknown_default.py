# expect: fail an unknown collective silently gets factor 1 instead of raising ValueError
# hint: ValueError|unknown|other collective|unsupported|raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
    }
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors.get(collective, 1.0)  # broadcast and the rest: 1


answer = bandwidths
