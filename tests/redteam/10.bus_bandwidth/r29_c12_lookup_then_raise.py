# expect: pass a frozenset of ring collectives plus dict.get with a None sentinel, ValueError raised before any arithmetic
# hint: 
_ONE_WAY = frozenset({"all_gather", "reduce_scatter"})


def _factor(collective, n):
    if collective == "broadcast":
        return 1.0
    ring = (n - 1) / n
    table = {"all_reduce": 2 * ring, **dict.fromkeys(_ONE_WAY, ring)}
    factor = table.get(collective)
    if factor is None:
        raise ValueError(f"no bus-bandwidth factor for collective {collective!r}")
    return factor


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    factor = _factor(collective, world_size)
    algbw = (nbytes / 1e9) / seconds
    busbw = algbw * factor
    return (algbw, busbw)


answer = bandwidths
