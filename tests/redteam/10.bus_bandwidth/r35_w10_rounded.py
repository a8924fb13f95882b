# expect: fail rounds both bandwidths to 3 decimals like the example's print, so small or slow transfers (a few KiB) come back as 0.0 or off by the rounding.
# hint: round|precision|decimal|exact|small
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n,
               "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return round(algbw, 3), round(algbw * factors[collective], 3)

answer = bandwidths
