# expect: pass a callable class instance with per-tensor bookkeeping and a generator for the shards
# hint:
from functools import reduce
from operator import mul


class RankZeroMemory:
    FP32 = 4
    MOMENTS = 2
    STEP = 4

    @staticmethod
    def numel(shape):
        return reduce(mul, shape, 1)

    def owned_by_rank0(self, shapes, n):
        """Yield the indices of the tensors ZeroRedundancyOptimizer deals to rank 0."""
        sizes = [self.numel(s) for s in shapes]
        held = [0] * n
        for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
            lightest = held.index(min(held))
            held[lightest] += sizes[i]
            if lightest == 0:
                yield i

    def shard_rows(self, shapes, n):
        for s in shapes:
            yield (s[0] + n - 1) // n * self.numel(s[1:])

    def __call__(self, shapes, plan, world_size):
        shapes = [tuple(s) for s in shapes]
        everything = sum(self.numel(s) for s in shapes)
        if plan == "fsdp2":
            kept = sum(self.shard_rows(shapes, world_size))
            return {
                "params": self.FP32 * kept,
                "grads": self.FP32 * kept,
                "optimizer": self.MOMENTS * self.FP32 * kept + self.STEP * len(shapes),
            }
        if plan == "zero1":
            mine = list(self.owned_by_rank0(shapes, world_size))
            state = sum(self.MOMENTS * self.FP32 * self.numel(shapes[i]) + self.STEP for i in mine)
        elif plan == "ddp":
            state = self.MOMENTS * self.FP32 * everything + self.STEP * len(shapes)
        else:
            raise ValueError(f"unknown plan {plan!r}")
        return {"params": self.FP32 * everything, "grads": self.FP32 * everything, "optimizer": state}


answer = RankZeroMemory()
