# expect: fail memoises the algbw/factor on (nbytes, seconds) only, so a later call with another collective or world_size gets a stale factor
# hint: (factor|collective|world_size|ranks|all_gather|all-gather|all_reduce|all-reduce|broadcast|reduce_scatter|reduce-scatter)
# name: bandwidths

_cache = {}


def _factor(world_size, collective):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


def bandwidths(nbytes, seconds, world_size, collective):
    factor = _factor(world_size, collective)  # validates the name
    key = (nbytes, seconds)
    if key not in _cache:  # the same measurement seen again: reuse it
        algbw = nbytes / seconds / 1e9
        _cache[key] = (algbw, algbw * factor)
    return _cache[key]
