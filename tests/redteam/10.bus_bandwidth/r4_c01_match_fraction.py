# expect: pass a match statement and fractions.Fraction for the factor, converted to float at the end
# hint: 
from fractions import Fraction


def answer(nbytes, seconds, world_size, collective):
    n = world_size
    match collective:
        case "all_reduce":
            factor = Fraction(2 * (n - 1), n)
        case "all_gather" | "reduce_scatter":
            factor = Fraction(n - 1, n)
        case "broadcast":
            factor = Fraction(1)
        case _:
            raise ValueError("collective must be all_reduce, all_gather, reduce_scatter or broadcast")
    algbw = nbytes / seconds / 10**9
    return algbw, float(algbw * factor)
