# expect: fail falls back to a factor of 1 for an unknown collective instead of raising ValueError, so a typo such as 'allreduce' silently gets a wrong busbw.
# hint: valueerror|raise|unknown|other collective|invalid
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factor = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
    }.get(collective, 1.0)  # broadcast, and anything else
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
