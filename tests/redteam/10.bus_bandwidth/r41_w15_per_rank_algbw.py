# expect: fail divides algbw by world_size (per-rank bytes)
# hint: (algbw|nbytes ?/ ?seconds|world_size|per rank|ranks)
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
    algbw = nbytes / seconds / 1e9 / n
    return algbw, algbw * factor
