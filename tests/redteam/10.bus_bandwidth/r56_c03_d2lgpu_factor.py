# expect: pass takes the ring factor 2 (n - 1) / n from d2lgpu's all_reduce_bandwidth (1 byte in 1 s) and halves it for all-gather / reduce-scatter
# hint:
from d2lgpu.collectives import all_reduce_bandwidth


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"unknown collective {collective!r}")
    ring = all_reduce_bandwidth(1, 1.0, world_size)[1]  # 2 (n - 1) / n
    factor = {
        "all_reduce": ring,
        "all_gather": ring / 2,  # one half of the all-reduce
        "reduce_scatter": ring / 2,  # the other half
        "broadcast": 1.0,
    }[collective]
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
