# expect: fail gives broadcast the ring factor (n-1)/n instead of 1, so its bus bandwidth is understated.
# hint: broadcast|factor|1\b|one|once
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factor = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": (n - 1) / n,  # the n-1 other ranks each receive the buffer
    }
    if collective not in factor:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor[collective]

answer = bandwidths
