# expect: pass takes the ring factor 2(n-1)/n from d2lgpu.collectives.all_reduce_bandwidth (the busbw of 1 byte in 1 s) and derives the others from it: half for gather/scatter, 1 for broadcast.
# hint:
# name: bandwidths
from d2lgpu.collectives import all_reduce_bandwidth

_KNOWN = ("all_reduce", "all_gather", "reduce_scatter", "broadcast")


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in _KNOWN:
        raise ValueError(f"unknown collective {collective!r}; expected one of {_KNOWN}")
    ring = all_reduce_bandwidth(1, 1.0, world_size)[1]  # 1 byte in 1 s: busbw = 2(n-1)/n
    factor = {"all_reduce": ring, "all_gather": ring / 2, "reduce_scatter": ring / 2,
              "broadcast": 1.0}[collective]
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
