# expect: pass exact rational arithmetic with fractions.Fraction, converted to float once at the end
# hint:
import numbers
from fractions import Fraction

_GB = 10**9


def _factor(collective, n):
    if collective == "all_reduce":
        return Fraction(2 * (n - 1), n)
    if collective in ("all_gather", "reduce_scatter"):
        return Fraction(n - 1, n)
    if collective == "broadcast":
        return Fraction(1)
    raise ValueError(f"unknown collective {collective!r}")


def _exact(x):
    return Fraction(x) if isinstance(x, numbers.Rational) else Fraction(float(x))


def compute_bandwidths(nbytes, seconds, world_size, collective):
    factor = _factor(collective, int(world_size))
    algbw = _exact(nbytes) / _exact(seconds) / _GB
    return float(algbw), float(algbw * factor)


answer = compute_bandwidths
