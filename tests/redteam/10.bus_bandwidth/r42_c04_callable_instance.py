# expect: pass a class instance with __call__ (keeps a call count and a per-(collective, n) table)
# hint: 
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
    def __init__(self):
        self.calls = 0
        self.factors = {}

    def __call__(self, nbytes, seconds, world_size, collective):
        self.calls += 1
        factor = self.factors.get((collective, world_size))
        if factor is None:
            factor = self.factors[(collective, world_size)] = _factor(collective, world_size)
        algbw = nbytes / seconds / 1e9
        return algbw, algbw * factor


bandwidths = _Bandwidths()
