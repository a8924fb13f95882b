# expect: pass a callable class instance with a table of factor functions of n, GB/s as a class constant
# hint:
class Bandwidths:
    """(algbw, busbw) in GB/s, nccl-tests' definitions."""

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
            raise ValueError(f"unknown collective {collective!r}") from None
        algbw = nbytes / seconds / self.GB
        return algbw, algbw * factor(world_size)


bandwidths = Bandwidths()
answer = bandwidths
