# expect: fail the factor is cached per collective on the first call, so it keeps the first call's world size: later calls with another number of ranks get the old factor
# hint: cache|memo|first call|called twice|world.?size|ranks|stale|state|factor
_FACTORS = {}


def _factor(collective, world_size):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in _FACTORS:  # compute each factor once
        _FACTORS[collective] = _factor(collective, world_size)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[collective]


answer = bandwidths
