# expect: pass class with __call__ and a match statement
# hint: 
class BusBandwidth:
    """nccl-tests' algorithm and bus bandwidth, in GB/s (10**9 bytes per second)."""

    GB = 10**9

    def factor(self, collective, n):
        match collective:
            case "all_reduce":
                return 2 * (n - 1) / n
            case "all_gather" | "reduce_scatter":
                return (n - 1) / n
            case "broadcast":
                return 1.0
            case _:
                raise ValueError(f"collective must be all_reduce, all_gather, reduce_scatter "
                                 f"or broadcast, got {collective!r}")

    def __call__(self, nbytes, seconds, world_size, collective):
        factor = self.factor(collective, world_size)
        algbw = nbytes / seconds / self.GB
        return (algbw, algbw * factor)


answer = BusBandwidth()
