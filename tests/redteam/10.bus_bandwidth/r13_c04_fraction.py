# expect: pass exact Fraction arithmetic, floats returned
# hint: 
from fractions import Fraction

_SLICES = {"all_reduce": 2, "all_gather": 1, "reduce_scatter": 1}


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    if collective == "broadcast":
        factor = Fraction(1)
    elif collective in _SLICES:
        factor = Fraction(_SLICES[collective] * (world_size - 1), world_size)
    else:
        raise ValueError("unsupported collective " + repr(collective))
    algbw = nbytes / seconds / 10**9
    busbw = float(Fraction(algbw) * factor)
    return float(algbw), busbw


answer = bandwidths
