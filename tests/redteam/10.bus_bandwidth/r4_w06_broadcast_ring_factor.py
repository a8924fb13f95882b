# expect: fail broadcast factor (n - 1) / n instead of 1
# hint: broadcast
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": (n - 1) / n,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return algbw, busbw
