# expect: fail divides by 2**30 (GiB/s) instead of 1e9 (GB/s)
# hint: (GB/s|10\^?9|1e9|GiB|2\*\*30|10<sup>9|unit)
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
    algbw = nbytes / seconds / 2**30
    return algbw, algbw * factor
