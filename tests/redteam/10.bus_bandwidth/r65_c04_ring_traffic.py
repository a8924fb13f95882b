# expect: pass
# hint:
# Right: counts the bytes each rank's link carries in a ring (steps x slice), divides by
# the time: busbw = link bytes / seconds, the same number as algbw x factor.
def answer(nbytes, seconds, world_size, collective):
    n = world_size
    slice_bytes = nbytes / n
    if collective == "all_reduce":  # reduce-scatter then all-gather: 2 (n - 1) slices
        link_bytes = 2 * (n - 1) * slice_bytes
    elif collective in ("all_gather", "reduce_scatter"):  # n - 1 slices
        link_bytes = (n - 1) * slice_bytes
    elif collective == "broadcast":  # the whole buffer crosses each link once
        link_bytes = nbytes
    else:
        raise ValueError(f"unknown collective {collective!r}")
    return nbytes / seconds / 1e9, link_bytes / seconds / 1e9
