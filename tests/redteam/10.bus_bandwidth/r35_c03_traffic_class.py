# expect: pass a small frozen dataclass per collective giving the slices each rank's link carries per buffer, busbw computed as algbw times that traffic.
# hint:
# name: bandwidths
from dataclasses import dataclass


@dataclass(frozen=True)
class _Traffic:
    passes: int  # ring passes: 2 for all-reduce (a reduce-scatter, then an all-gather)
    whole: bool = False  # the whole buffer crosses each link once (broadcast)

    def factor(self, n):
        return 1.0 if self.whole else self.passes * (n - 1) / n


_TRAFFIC = {
    "all_reduce": _Traffic(2),
    "all_gather": _Traffic(1),
    "reduce_scatter": _Traffic(1),
    "broadcast": _Traffic(0, whole=True),
}


def bandwidths(nbytes, seconds, world_size, collective):
    try:
        traffic = _TRAFFIC[collective]
    except (KeyError, TypeError):
        raise ValueError(f"unknown collective {collective!r}") from None
    algbw = nbytes / (seconds * 1e9)
    return algbw, algbw * traffic.factor(world_size)

answer = bandwidths
