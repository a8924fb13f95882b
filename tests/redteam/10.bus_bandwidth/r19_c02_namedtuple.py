# expect: pass returns a NamedTuple (a tuple subclass) built from the bytes each link carries
# hint: 
from typing import NamedTuple


class Bandwidths(NamedTuple):
    algbw: float  # GB/s
    busbw: float  # GB/s


_LINK_SHARE = {  # bytes each rank's link carries per byte of the buffer, for n ranks
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1,
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    share = _LINK_SHARE.get(collective)
    if share is None:
        raise ValueError(f"unknown collective {collective!r}; known: {', '.join(_LINK_SHARE)}")
    per_link = nbytes * share(world_size)  # bytes through each rank's link
    return Bandwidths(nbytes / seconds / 1e9, per_link / seconds / 1e9)


answer = bandwidths
