# expect: fail returns (busbw, algbw), the pair in the wrong order
# hint: order|algbw|busbw|swap|first
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return busbw, algbw

answer = bandwidths
