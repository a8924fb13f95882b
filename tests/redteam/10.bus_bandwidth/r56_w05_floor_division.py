# expect: fail all_reduce factor computed with integer division 2 * (n - 1) // n (right only for n = 2)
# hint: integer|floor|//|truncat|round|all_reduce|factor|2 ?\(n ?- ?1\)
def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    n = world_size
    algbw = nbytes / seconds / 1e9
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    return algbw, algbw * factor


answer = bandwidths
