# expect: fail module-level last world size: the factor is recomputed only when world_size changes, not when the collective does
# hint: cache|previous|earlier|first call|between calls|state|remember|kept|keep|again|order|another call|depend
# name: bandwidths
def _factor(collective, world_size):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


_last = {"n": None, "factor": None}


def bandwidths(nbytes, seconds, world_size, collective):
    if world_size != _last["n"]:
        _last["n"], _last["factor"] = world_size, _factor(collective, world_size)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _last["factor"]
