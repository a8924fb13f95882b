# expect: fail factor table keyed on (collective[:3], world_size): all_reduce and all_gather share a key
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
    key = (collective[:3], world_size)  # "all", "red", "bro"
    if key not in _FACTORS:
        _FACTORS[key] = _factor(collective, world_size)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[key]
