# expect: pass exact factors with fractions.Fraction, converted to float at the end; validation first
# hint: 
from fractions import Fraction

_KNOWN = ("all_reduce", "all_gather", "reduce_scatter", "broadcast")


def bandwidths(nbytes, seconds, world_size, collective):
    if collective not in _KNOWN:
        raise ValueError(collective)
    n = world_size
    if collective == "broadcast":
        factor = Fraction(1)
    else:
        factor = Fraction(n - 1, n) * (2 if collective == "all_reduce" else 1)
    algbw = float(nbytes) / float(seconds) * 1e-9
    return algbw, algbw * float(factor)

answer = bandwidths
