# expect: pass structural pattern matching (match/case), GB/s via division by 10**9
# hint: 
def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    match collective:
        case "all_reduce":
            factor = 2 * (n - 1) / n
        case "all_gather" | "reduce_scatter":
            factor = (n - 1) / n
        case "broadcast":
            factor = 1
        case _:
            raise ValueError(f"collective must be all_reduce, all_gather, reduce_scatter or broadcast, not {collective!r}")
    algbw = nbytes / 10**9 / seconds
    busbw = algbw * factor
    return (algbw, busbw)

answer = bandwidths
