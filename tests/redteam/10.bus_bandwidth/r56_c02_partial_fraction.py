# expect: pass functools.partial over a generic function, factors as exact Fractions converted to float at the end
# hint:
import functools
from fractions import Fraction

_RING = {  # (links-per-byte numerator multiplier, whether it scales by (n - 1) / n)
    "all_reduce": (2, True),
    "all_gather": (1, True),
    "reduce_scatter": (1, True),
    "broadcast": (1, False),
}


def _bandwidths(nbytes, seconds, world_size, collective, *, unit):
    if collective not in _RING:
        raise ValueError(f"unsupported collective: {collective!r}")
    times, ring = _RING[collective]
    n = world_size
    factor = Fraction(times * (n - 1), n) if ring else Fraction(times)
    algbw = nbytes / seconds / unit
    return float(algbw), float(algbw * factor)


bandwidths = functools.partial(_bandwidths, unit=1e9)
answer = bandwidths
