# expect: fail uses the all-reduce factor 2(n-1)/n for all_gather and reduce_scatter too, doubling their bus bandwidth.
# hint: all_gather|reduce_scatter|factor|\(n ?- ?1\) ?/ ?n|twice|double
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective in ("all_reduce", "all_gather", "reduce_scatter"):
        factor = 2 * (n - 1) / n  # a ring: every rank sends and receives (n-1)/n twice
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
