# expect: pass
# hint:
# Right: match/case on the name and the factor as an exact Fraction (1 - 1/n form);
# the results are converted to float once, at the end (correctly rounded).
from fractions import Fraction


def answer(nbytes, seconds, world_size, collective):
    n = Fraction(world_size)
    match collective:
        case "all_reduce":
            factor = 2 * (1 - 1 / n)
        case "all_gather" | "reduce_scatter":
            factor = 1 - 1 / n
        case "broadcast":
            factor = Fraction(1)
        case _:
            raise ValueError(f"unknown collective {collective!r}")
    algbw = Fraction(nbytes) / Fraction(seconds) / 10**9
    return float(algbw), float(algbw * factor)
