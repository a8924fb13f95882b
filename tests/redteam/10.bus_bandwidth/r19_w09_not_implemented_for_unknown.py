# expect: fail raises NotImplementedError (not ValueError) for an unknown collective
# hint: ValueError|NotImplementedError|unknown|other collective|raise
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
        raise NotImplementedError(f"no bus-bandwidth factor for {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
