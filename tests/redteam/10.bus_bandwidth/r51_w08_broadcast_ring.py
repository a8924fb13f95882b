# expect: fail gives broadcast the ring factor (n - 1) / n, "the root already has its copy", instead of 1
# hint: broadcast
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": (n - 1) / n,  # every rank but the root receives the buffer
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factors[collective]


answer = bandwidths
