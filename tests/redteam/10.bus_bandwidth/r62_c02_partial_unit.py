# expect: pass functools.partial of a general rate function with the unit as a keyword (1e9 bytes), a match statement for the factor
# hint:
import functools


def _rates(nbytes, seconds, world_size, collective, *, unit):
    n = world_size
    match collective:
        case "all_reduce":
            factor = 2 * (n - 1) / n
        case "all_gather" | "reduce_scatter":
            factor = (n - 1) / n
        case "broadcast":
            factor = 1
        case _:
            raise ValueError(f"collective must be all_reduce, all_gather, reduce_scatter or broadcast, got {collective!r}")
    algbw = nbytes / seconds / unit
    return (algbw, algbw * factor)


bandwidths = functools.partial(_rates, unit=1e9)
answer = bandwidths
