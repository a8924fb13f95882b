# expect: pass match statement, exact Fraction factors, functools.lru_cache on the pure factor function
# hint:
import functools
from fractions import Fraction

GB = 10**9


@functools.lru_cache(maxsize=None)
def _factor(collective, n):
    match collective:
        case "all_reduce":
            return Fraction(2 * (n - 1), n)
        case "all_gather" | "reduce_scatter":
            return Fraction(n - 1, n)
        case "broadcast":
            return Fraction(1)
    raise ValueError(f"collective must be all_reduce, all_gather, reduce_scatter or broadcast, not {collective!r}")


def bandwidths(nbytes, seconds, world_size, collective):
    if not isinstance(collective, str):
        raise ValueError(f"collective must be a name, not {collective!r}")
    factor = _factor(collective, int(world_size))
    algbw = nbytes / seconds / GB
    busbw = algbw * float(factor)
    return float(algbw), float(busbw)


answer = bandwidths
