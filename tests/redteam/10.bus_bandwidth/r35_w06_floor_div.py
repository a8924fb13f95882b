# expect: fail computes the factors with integer division // , so 2(n-1)//n and (n-1)//n round down (to 1 and 0) and busbw is wrong for most n.
# hint: factor|integer|floor|//|division|float
# name: bandwidths
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 * (n - 1) // n
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) // n
    elif collective == "broadcast":
        factor = 1
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor

answer = bandwidths
