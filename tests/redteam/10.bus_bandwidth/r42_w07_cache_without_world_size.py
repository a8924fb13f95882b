# expect: fail cache keyed on (nbytes, seconds, collective): world_size missing from the key
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


_CACHE = {}


def bandwidths(nbytes, seconds, world_size, collective):
    key = (nbytes, seconds, collective)
    if key not in _CACHE:
        algbw = nbytes / seconds / 1e9
        _CACHE[key] = (algbw, algbw * _factor(collective, world_size))
    return _CACHE[key]
