# expect: pass a match statement; the check of the name first; bytes per second converted at the end
# hint:
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    match collective:
        case "all_reduce":
            factor = 2 * (n - 1) / n
        case "all_gather" | "reduce_scatter":
            factor = (n - 1) / n
        case "broadcast":
            factor = 1
        case _:
            raise ValueError(f"bandwidths: no bus-bandwidth factor for {collective!r}")
    bytes_per_second = nbytes / seconds
    GB = 10**9
    return bytes_per_second / GB, bytes_per_second * factor / GB


answer = bandwidths
