# expect: pass reuses d2lgpu.collectives.all_reduce_bandwidth (bytes/s) and rescales its factor for the other collectives
# hint: 
# name: bandwidths
from d2lgpu.collectives import all_reduce_bandwidth


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in ("all_reduce", "all_gather", "reduce_scatter", "broadcast"):
        raise ValueError(collective)
    algbw = nbytes / seconds
    if collective == "all_reduce":
        algbw, busbw = all_reduce_bandwidth(nbytes, seconds, world_size)
    elif collective == "broadcast":
        busbw = algbw
    else:  # half an all-reduce's traffic
        busbw = algbw * (world_size - 1) / world_size
    return algbw / 1e9, busbw / 1e9
