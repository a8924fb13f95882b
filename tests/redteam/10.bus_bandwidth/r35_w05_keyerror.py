# expect: fail looks the factor up in a dict without a guard, so an unknown collective raises KeyError, not the ValueError the prompt asks for.
# hint: valueerror|keyerror|raise|unknown|other collective
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
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
