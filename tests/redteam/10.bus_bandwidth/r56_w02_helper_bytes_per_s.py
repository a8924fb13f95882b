# expect: fail all_reduce goes through d2lgpu's all_reduce_bandwidth, which returns bytes/s, left unconverted (other collectives in GB/s)
# hint: GB/s|10\*\*9|1e9|bytes/s|bytes per second|unit
from d2lgpu.collectives import all_reduce_bandwidth


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        return all_reduce_bandwidth(nbytes, seconds, n)
    if collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
