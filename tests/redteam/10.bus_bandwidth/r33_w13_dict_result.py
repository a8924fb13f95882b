# expect: fail returns a dict {'algbw', 'busbw'} instead of the pair (algbw, busbw)
# hint: tuple|pair|dict|type|return
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return {"algbw": algbw, "busbw": algbw * factors[collective]}

answer = bandwidths
