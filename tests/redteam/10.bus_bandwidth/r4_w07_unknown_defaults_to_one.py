# expect: fail an unknown collective gets factor 1 instead of raising ValueError
# hint: ValueError|unknown|collective|raise
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors.get(collective, 1.0)
    return algbw, busbw
