# expect: fail class instance with __call__ that stores self.factor at its first call
# hint: cache|previous|earlier|first call|between calls|state|remember|kept|keep|again|order|another call|depend
# name: bandwidths
def _factor(collective, world_size):
    n = world_size
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("all_gather", "reduce_scatter"):
        return (n - 1) / n
    if collective == "broadcast":
        return 1.0
    raise ValueError(f"unknown collective {collective!r}")


class _Bandwidths:
    factor = None

    def __call__(self, nbytes, seconds, world_size, collective):
        if self.factor is None:
            self.factor = _factor(collective, world_size)
        algbw = nbytes / seconds / 1e9
        return algbw, algbw * self.factor


bandwidths = _Bandwidths()
