# expect: pass a frozen dataclass that computes both numbers, returned as a plain tuple via astuple
# hint: 
from dataclasses import astuple, dataclass, field

_FACTOR = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1,
}


@dataclass(frozen=True)
class Bandwidth:
    algbw: float
    busbw: float = field(default=0.0)

    @classmethod
    def of(cls, nbytes, seconds, world_size, collective):
        if collective not in _FACTOR:
            raise ValueError(f"unsupported collective {collective!r}")
        alg = nbytes / seconds / 1_000_000_000
        return cls(alg, alg * _FACTOR[collective](world_size))


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    return astuple(Bandwidth.of(nbytes, seconds, world_size, collective))


answer = bandwidths
