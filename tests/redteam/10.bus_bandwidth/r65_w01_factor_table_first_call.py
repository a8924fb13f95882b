# expect: fail the factor table is built once, on the first call, with that call's world_size, and reused for every later call with another number of ranks
# hint: cach|first call|second call|later call|stale|reus|world.?size|number of ranks
# Wrong: the factors depend on n (2 (n-1)/n, (n-1)/n); after the first call the
# table keeps the first world_size's values, so a second call on other ranks is off.
_FACTORS = None


def answer(nbytes, seconds, world_size, collective):
    global _FACTORS
    if _FACTORS is None:  # build the table once: the factors are constants
        n = world_size
        _FACTORS = {
            "all_reduce": 2 * (n - 1) / n,
            "all_gather": (n - 1) / n,
            "reduce_scatter": (n - 1) / n,
            "broadcast": 1.0,
        }
    if collective not in _FACTORS:
        raise ValueError(f"unknown collective {collective!r}")
    algbw = nbytes / seconds / 1e9
    return algbw, algbw * _FACTORS[collective]
