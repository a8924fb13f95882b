# expect: fail factor cached keyed on world_size only: the first collective's factor reused
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


_FACTORS = {}


def bandwidths(nbytes, seconds, world_size, collective):
    if world_size not in _FACTORS:
        _FACTORS[world_size] = _factor(collective, world_size)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[world_size]
