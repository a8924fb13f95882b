# expect: pass a cached factor table keyed on (collective, world_size)
# hint: 
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
    key = (collective, world_size)
    if key not in _FACTORS:
        _FACTORS[key] = _factor(collective, world_size)
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[key]
