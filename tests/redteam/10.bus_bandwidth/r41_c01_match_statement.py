# expect: pass match statement on the collective, algbw first, factor second
# hint: 
# name: bandwidths


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    match collective:
        case "all_reduce":
            factor = 2 * (n - 1) / n
        case "all_gather" | "reduce_scatter":
            factor = (n - 1) / n
        case "broadcast":
            factor = 1.0
        case _:
            raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * factor
