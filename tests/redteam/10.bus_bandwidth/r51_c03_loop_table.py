# expect: pass loop over a table of (name, numerator, denominator-is-n) rows, building a namedtuple result
# hint:
from collections import namedtuple

Bandwidth = namedtuple("Bandwidth", "algbw busbw")

# (collective, multiplier of (n - 1) / n, or None for a factor of 1)
_TABLE = [
    ("all_reduce", 2),
    ("all_gather", 1),
    ("reduce_scatter", 1),
    ("broadcast", None),
]


def bandwidths(nbytes, seconds, world_size, collective):
    for name, mult in _TABLE:
        if isinstance(collective, str) and collective == name:
            break
    else:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    factor = 1.0 if mult is None else mult * (world_size - 1) / world_size
    return Bandwidth(algbw, algbw * factor)


answer = bandwidths
