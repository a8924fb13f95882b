# expect: fail the factor is cached by collective name on first use: a later call with another world size reuses the first n's factor
# hint: world.?size|cache|state|previous call|ranks|factor
_cache = {}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective not in _cache:
        n = world_size
        table = {"all_reduce": 2 * (n - 1) / n, "all_gather": (n - 1) / n, "reduce_scatter": (n - 1) / n, "broadcast": 1.0}
        if collective not in table:
            raise ValueError(f"unknown collective {collective!r}")
        _cache[collective] = table[collective]
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _cache[collective]


answer = bandwidths
