# expect: pass match statement; busbw computed as the bytes each link carries over the time, converted to GB/s once
# hint:
# name: bus_and_alg_bandwidth
def bus_and_alg_bandwidth(nbytes, seconds, world_size, collective):
    n = world_size
    match collective:
        case "all_reduce":
            link_bytes = nbytes * 2 * (n - 1) / n
        case "all_gather" | "reduce_scatter":
            link_bytes = nbytes * (n - 1) / n
        case "broadcast":
            link_bytes = nbytes
        case _:
            raise ValueError(f"no bus bandwidth defined for {collective!r}")
    return nbytes / seconds * 1e-9, link_bytes / seconds * 1e-9
