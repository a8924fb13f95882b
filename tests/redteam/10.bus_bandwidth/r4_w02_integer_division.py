# expect: fail (n - 1) // n integer division: the all-gather/reduce-scatter factor is 0 and all-reduce's 0
# hint: factor|\(n - 1\) / n|division|all_gather|reduce_scatter|busbw
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 2 * (n - 1) // n,
        "all_gather": (n - 1) // n,
        "reduce_scatter": (n - 1) // n,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return algbw, busbw
