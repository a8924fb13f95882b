# expect: fail busbw = algbw / factor instead of algbw * factor
# hint: multipl|× ?factor|\* ?factor|divid|inverse|invert|busbw ?= ?algbw
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    # the bus carries `factor` bytes per byte of the buffer: the bus is that much busier
    busbw = algbw / factor if factor else 0.0
    return algbw, busbw


answer = bandwidths
