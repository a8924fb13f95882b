# expect: pass functools.partial dispatch table, ring factor as halves * (n - 1) / n
# hint: 
from functools import partial


def _bw(links, nbytes, seconds, world_size):
    """links(n) -> bytes each rank's link carries per byte of the buffer."""
    algbw = nbytes / 1e9 / seconds
    return algbw, algbw * links(world_size)


def _ring(n, halves):
    return halves * (n - 1) / n


_DISPATCH = {
    "all_reduce": partial(_bw, partial(_ring, halves=2)),
    "all_gather": partial(_bw, partial(_ring, halves=1)),
    "reduce_scatter": partial(_bw, partial(_ring, halves=1)),
    "broadcast": partial(_bw, lambda n: 1),
}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s."""
    if collective not in _DISPATCH:
        raise ValueError(f"unknown collective: {collective}")
    return _DISPATCH[collective](nbytes, seconds, world_size)


answer = bandwidths
