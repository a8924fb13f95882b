# expect: fail divides by 2**30 (GiB/s) instead of 1e9 (GB/s)
# hint: 1e9|10\^?9|GB|GiB|2\*\*30|units?
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) / n,
        "all_gather": (n - 1) / n,
        "reduce_scatter": (n - 1) / n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 2**30
    busbw = algbw * factors[collective]
    return algbw, busbw
