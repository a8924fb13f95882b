# expect: fail rounds both results to 3 decimals, as the notebook prints them, losing precision (small bandwidths become 0)
# hint: round|precision|decimal|value|exact|close|expected
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(collective)
    algbw = nbytes / seconds / 1e9
    return round(algbw, 3), round(algbw * factors[collective], 3)

answer = bandwidths
