# expect: pass a callable class instance holding a table of factor functions
# hint:
class BusBandwidth:
    """Callable: (algbw, busbw) in GB/s, as nccl-tests defines them."""

    GB = 10**9
    FACTORS = {
        "all_reduce": lambda n: 2 * (n - 1) / n,
        "all_gather": lambda n: (n - 1) / n,
        "reduce_scatter": lambda n: (n - 1) / n,
        "broadcast": lambda n: 1.0,
    }

    def __call__(self, nbytes, seconds, world_size, collective):
        try:
            factor = self.FACTORS[collective]
        except (KeyError, TypeError):
            raise ValueError(
                f"collective must be one of {sorted(self.FACTORS)}, got {collective!r}"
            ) from None
        algbw = nbytes / seconds / self.GB
        return algbw, algbw * factor(world_size)


bandwidths = BusBandwidth()
answer = bandwidths
