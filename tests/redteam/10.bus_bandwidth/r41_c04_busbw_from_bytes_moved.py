# expect: pass computes the bytes each link carries first, then divides both by the time (different operation order)
# hint: 
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        carried = nbytes * 2 * (n - 1) / n  # a reduce-scatter plus an all-gather
    elif collective in {"all_gather", "reduce_scatter"}:
        carried = nbytes * (n - 1) / n  # the n - 1 slices a rank lacks
    elif collective == "broadcast":
        carried = nbytes
    else:
        raise ValueError("collective must be all_reduce, all_gather, reduce_scatter or broadcast")
    GB = 10**9
    return nbytes / seconds / GB, carried / seconds / GB
