# expect: fail gives broadcast the factor (n - 1) / n (as if only the other ranks' share crossed the link) instead of 1
# hint: broadcast|factor|\(n ?- ?1\) ?/ ?n|\b1\b|one|each link
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n
    elif collective in ("all_gather", "reduce_scatter", "broadcast"):
        factor = (n - 1) / n
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
