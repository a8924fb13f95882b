# expect: fail all_gather's nbytes multiplied by world_size again (reads nbytes as each rank's input)
# hint: all_gather.{0,200}(nbytes|world|already|gathered)
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
    if collective == "all_gather":
        nbytes = nbytes * n
    algbw = nbytes / seconds / 1e9
    busbw = algbw * factors[collective]
    return algbw, busbw
