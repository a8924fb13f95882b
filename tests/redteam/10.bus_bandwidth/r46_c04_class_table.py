# expect: pass a callable object over a table of (numerator scale) pairs, with a namedtuple result that is still the pair (algbw, busbw)
# hint:
from typing import NamedTuple


class Bandwidth(NamedTuple):
    algbw: float
    busbw: float


class BusBandwidth:
    # factor = scale * (n - offset) / n: offset 1 for the ring collectives, 0 for broadcast
    TABLE = {
        "all_reduce": (2, 1),
        "all_gather": (1, 1),
        "reduce_scatter": (1, 1),
        "broadcast": (1, 0),
    }
    GIGA = 1_000_000_000

    def __call__(self, nbytes, seconds, world_size, collective):
        if collective not in self.TABLE:
            raise ValueError(f"unsupported collective: {collective!r}")
        scale, offset = self.TABLE[collective]
        algbw = nbytes / (seconds * self.GIGA)
        factor = scale * (world_size - offset) / world_size
        return Bandwidth(algbw, algbw * factor)


bandwidths = BusBandwidth()
answer = bandwidths
