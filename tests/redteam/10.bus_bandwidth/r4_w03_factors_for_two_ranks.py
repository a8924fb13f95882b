# expect: fail factors written in for two ranks (all_reduce 1, all_gather/reduce_scatter 0.5): right only when world_size is 2
# hint: depends on n|for every n|n ranks|written in|only (right )?for 2|2 ranks
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    factors = {
        "all_reduce": 1.0,
        "all_gather": 0.5,
        "reduce_scatter": 0.5,
        "broadcast": 1.0,
    }
    if collective not in factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return algbw, busbw
