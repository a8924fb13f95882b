# expect: pass remembers only the last call's four arguments and result
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


_last = {"key": None, "value": None}


def bandwidths(nbytes, seconds, world_size, collective):
    key = (nbytes, seconds, world_size, collective)
    if _last["key"] != key:
        algbw = nbytes / seconds / 1e9
        _last["key"], _last["value"] = key, (algbw, algbw * _factor(collective, world_size))
    return _last["value"]
