# expect: fail matches names by suffix, so "reduce", "gather", "scatter" (other collectives) are accepted instead of raising ValueError
# hint: ValueError|unknown|other collective|unsupported|raise|reduce\b|gather\b
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    algbw = nbytes / seconds / 1e9
    if collective.endswith("scatter"):
        factor = (n - 1) / n
    elif collective.endswith("reduce"):
        factor = 2 * (n - 1) / n
    elif collective.endswith("gather"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    return algbw, algbw * factor


answer = bandwidths
