# expect: fail dispatches with collective.startswith("all_") for the (n - 1) / n family, so "all_to_all" (or any "all_..." name) gets a factor instead of raising ValueError.
# hint: startswith|prefix|all_to_all|alltoall|(unknown|invalid|other|any other) (collective|name|string)|valueerror
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) / n  # a reduce-scatter plus an all-gather
    elif collective.startswith("all_") or collective == "reduce_scatter":
        factor = (n - 1) / n  # each rank receives the n - 1 slices it lacks
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor


answer = bandwidths
