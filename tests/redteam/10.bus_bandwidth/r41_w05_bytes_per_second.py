# expect: fail returns bytes per second: forgot to convert to GB/s
# hint: (GB/s|10\^?9|1e9|10<sup>9|bytes per second|unit|scale)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds
    return algbw, algbw * factor
