# expect: fail writes `collective == "all_gather" or "reduce_scatter"`, which is always true, so every name that is not all_reduce or broadcast, unknown ones included, gets (n - 1) / n and nothing raises ValueError; the four real collectives come out right.
# hint: or "|always true|truthy|(unknown|invalid|other|any other) (collective|name|string)|valueerror|never raise
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    elif collective == "all_gather" or "reduce_scatter":
        factor = (n - 1) / n
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
