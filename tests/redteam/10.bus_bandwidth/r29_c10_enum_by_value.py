# expect: pass an Enum looked up by value (Collective(name) raises ValueError by itself), factor as a method
# hint: 
from enum import Enum


class Collective(Enum):
    ALL_REDUCE = "all_reduce"
    ALL_GATHER = "all_gather"
    REDUCE_SCATTER = "reduce_scatter"
    BROADCAST = "broadcast"

    def factor(self, n):
        if self is Collective.ALL_REDUCE:
            return 2 * (n - 1) / n
        if self is Collective.BROADCAST:
            return 1.0
        return (n - 1) / n  # all-gather, reduce-scatter


def bandwidths(nbytes, seconds, world_size, collective):
    """(algbw, busbw) in GB/s of a collective over nbytes that took seconds on world_size ranks."""
    kind = Collective(collective)  # ValueError: 'x' is not a valid Collective
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * kind.factor(world_size)


answer = bandwidths
