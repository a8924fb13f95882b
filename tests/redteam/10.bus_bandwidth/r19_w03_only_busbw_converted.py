# expect: fail converts only busbw to GB/s; algbw is returned in bytes per second
# hint: algbw|GB/s|10\*\*9|1e9|units?|both
GB = 1e9


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in {"all_gather", "reduce_scatter"}:
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(collective)
    algbw = nbytes / seconds
    busbw = algbw * factor / GB
    return algbw, busbw


answer = bandwidths
