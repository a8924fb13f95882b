# expect: pass exact factors as fractions.Fraction in a dict of callables, bytes per ns = GB/s
# hint: 
# name: bandwidths
from fractions import Fraction

_FACTORS = {
    "all_reduce": lambda n: Fraction(2 * (n - 1), n),
    "all_gather": lambda n: Fraction(n - 1, n),
    "reduce_scatter": lambda n: Fraction(n - 1, n),
    "broadcast": lambda n: Fraction(1),
}


def bandwidths(nbytes, seconds, world_size, collective):
    try:
        factor = _FACTORS[collective](world_size)
    except KeyError:
        raise ValueError(f"collective must be one of {sorted(_FACTORS)}, not {collective!r}") from None
    bytes_per_ns = nbytes / (seconds * 1e9)  # 1 byte/ns = 1 GB/s
    return float(bytes_per_ns), float(bytes_per_ns * factor)
