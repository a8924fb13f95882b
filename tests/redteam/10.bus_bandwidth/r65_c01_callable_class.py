# expect: pass
# hint:
# Right: a callable class instance; one method per collective gives the factor, the
# unit is 10**9 bytes/s, and an unknown name raises ValueError. Holds no state.


class Bandwidths:
    GB = 1e9

    def _all_reduce(self, n):
        return 2 * (n - 1) / n

    def _all_gather(self, n):
        return (n - 1) / n

    def _reduce_scatter(self, n):
        return (n - 1) / n

    def _broadcast(self, n):
        return 1.0

    _NAMES = ("all_reduce", "all_gather", "reduce_scatter", "broadcast")

    def __call__(self, nbytes, seconds, world_size, collective):
        if collective not in self._NAMES:
            raise ValueError(f"collective must be one of {self._NAMES}, got {collective!r}")
        factor = getattr(self, "_" + collective)(world_size)
        algbw = nbytes / seconds / self.GB
        return algbw, algbw * factor


answer = Bandwidths()
