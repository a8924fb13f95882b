# expect: fail rounds both bandwidths to 3 decimals, as the example prints them
# hint: round|decimal|precision|exact|small
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    # tidy numbers, like the printout's {:7.3f}
    return round(algbw, 3), round(busbw, 3)


answer = bandwidths
