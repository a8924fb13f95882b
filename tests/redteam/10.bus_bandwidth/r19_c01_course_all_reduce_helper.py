# expect: pass starts from d2lgpu.collectives.all_reduce_bandwidth and rescales its ring factor for the other collectives
# hint: 
from d2lgpu.collectives import all_reduce_bandwidth

GB = 1e9


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(f"collective must be all_reduce, all_gather, reduce_scatter or "
                         f"broadcast, got {collective!r}")
    algbw, ring = all_reduce_bandwidth(nbytes, seconds, world_size)  # bytes/s, factor 2(n-1)/n
    if collective == "all_reduce":
        busbw = ring
    elif collective == "broadcast":
        busbw = algbw
    else:  # half of an all-reduce's traffic: (n-1)/n
        busbw = ring / 2
    return algbw / GB, busbw / GB


answer = bandwidths
