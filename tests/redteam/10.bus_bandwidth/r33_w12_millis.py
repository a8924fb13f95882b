# expect: fail treats seconds as milliseconds (multiplies by 1e-3), off by a factor 1000
# hint: second|ms|milli|unit|1000|GB
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / (seconds * 1e-3) / 1e9  # times are in ms
    return algbw, algbw * factors[collective]

answer = bandwidths
