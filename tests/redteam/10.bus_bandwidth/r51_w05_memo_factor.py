# expect: fail memoises each collective's factor by name only, so a later call with another world_size reuses the first one's factor
# hint: state|cache|memo|previous|earlier|between calls|busbw|factor|world.?size|rank
_FACTOR = {}  # collective -> factor, computed once


def _factor(collective, n):
    if collective not in _FACTOR:
        if collective == "all_reduce":
            _FACTOR[collective] = 2 * (n - 1) / n
        elif collective in ("all_gather", "reduce_scatter"):
            _FACTOR[collective] = (n - 1) / n
        elif collective == "broadcast":
            _FACTOR[collective] = 1.0
        else:
            raise ValueError(f"unknown collective {collective!r}")
    return _FACTOR[collective]


def bandwidths(nbytes, seconds, world_size, collective):
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _factor(collective, world_size)


answer = bandwidths
