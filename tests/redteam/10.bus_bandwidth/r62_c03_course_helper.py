# expect: pass reuses d2lgpu.collectives' all_reduce_bandwidth for the ring factor (on 1 byte in 1 s) and its GB constant; the other factors from that one
# hint:
# name: bandwidths
from d2lgpu.collectives import GB, all_reduce_bandwidth


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    ring = all_reduce_bandwidth(1, 1.0, world_size)[1]  # 2 (n - 1) / n
    factor = {"all_reduce": ring, "all_gather": ring / 2, "reduce_scatter": ring / 2, "broadcast": 1.0}[collective]
    algbw = nbytes / seconds / GB
    return algbw, algbw * factor
