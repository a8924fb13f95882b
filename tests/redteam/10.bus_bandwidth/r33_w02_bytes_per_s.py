# expect: fail returns bytes per second, forgetting to convert to GB/s
# hint: GB|10\^?9|1e9|unit|bytes per second
def bandwidths(nbytes, seconds, world_size, collective):
    factors = {"all_reduce": 2 * (world_size - 1) / world_size,
               "all_gather": (world_size - 1) / world_size,
               "reduce_scatter": (world_size - 1) / world_size,
               "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds
    return algbw, algbw * factors[collective]

answer = bandwidths
