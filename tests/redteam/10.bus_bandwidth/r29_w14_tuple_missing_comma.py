# expect: fail writes `collective in ("broadcast")`, a string, not a one-element tuple, so it tests for a substring: "cast", "road", "b" or "" get the broadcast factor instead of raising ValueError.
# hint: substring|tuple|comma|"cast"|empty string|(unknown|invalid|other|any other) (collective|name|string)|valueerror
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective in ("all_reduce",):
        factor = 2 * (n - 1) / n
    elif collective in ("broadcast"):
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
