# expect: pass a match statement on the collective with exact fractions.Fraction factors, GB/s as 1e9 bytes per second.
# hint:
# name: bandwidths
from fractions import Fraction


def bandwidths(nbytes, seconds, world_size, collective):
    n = world_size
    match collective:
        case "all_reduce":
            factor = Fraction(2 * (n - 1), n)
        case "all_gather" | "reduce_scatter":
            factor = Fraction(n - 1, n)
        case "broadcast":
            factor = Fraction(1)
        case _:
            raise ValueError(
                f"collective must be all_reduce, all_gather, reduce_scatter or broadcast, got {collective!r}"
            )
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * float(factor)

answer = bandwidths
