# expect: fail writes the all_reduce factor as 2 / (n / (n - 1)), which divides by zero for one rank
# hint: (ZeroDivision|world_size ?=+ ?1|one rank|1 rank|single|division by zero|divide)
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    if collective == "all_reduce":
        factor = 2 / (n / (n - 1))
    elif collective in ("all_gather", "reduce_scatter"):
        factor = (n - 1) / n
    elif collective == "broadcast":
        factor = 1.0
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
