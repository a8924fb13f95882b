# expect: fail factor table built once, at the first call's world_size, reused for other n
# hint: world.?size|state|cache|first call|between calls|number of ranks|rank count
_factors = {}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if not _factors:  # build the table once
        n = world_size
        _factors.update(
            all_reduce=2 * (n - 1) / n,
            all_gather=(n - 1) / n,
            reduce_scatter=(n - 1) / n,
            broadcast=1.0,
        )
    if collective not in _factors:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _factors[collective]


answer = bandwidths
