# expect: pass exact Fraction factors, a general function with the unit as a parameter, fixed to 1e9 by functools.partial
# hint:
import functools
from fractions import Fraction


def _bandwidths(nbytes, seconds, world_size, collective, *, unit):
    n = int(world_size)
    if collective == "all_reduce":
        factor = Fraction(2 * (n - 1), n)
    elif collective in ("all_gather", "reduce_scatter"):
        factor = Fraction(n - 1, n)
    elif collective == "broadcast":
        factor = Fraction(1)
    else:
        raise ValueError("collective must be all_reduce, all_gather, reduce_scatter or broadcast, not %r" % (collective,))
    algbw = nbytes / seconds / unit
    return float(algbw), float(algbw * factor)


bandwidths = functools.partial(_bandwidths, unit=1e9)
answer = bandwidths
