# expect: pass lru_cache on a factor helper of (collective, world_size)
# hint: 
# name: bandwidths
import functools


@functools.lru_cache(maxsize=64)
def _factor(collective, world_size):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


def bandwidths(nbytes, seconds, world_size, collective):
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _factor(collective, world_size)
