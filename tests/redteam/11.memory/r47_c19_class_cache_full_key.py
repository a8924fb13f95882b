# expect: pass callable class with a per-instance cache keyed on a copy of the shapes, the plan and world_size; returns a fresh dict
# hint:
import math


class RankZeroBytes:
    """predict(shapes, plan, world_size) with a memo keyed on every argument."""

    def __init__(self):
        self._memo = {}

    def __call__(self, shapes, plan, world_size):
        key = (tuple(tuple(int(n) for n in s) for s in shapes), str(plan), int(world_size))
        if key not in self._memo:
            self._memo[key] = self._compute(*key)
        params, grads, optimizer = self._memo[key]
        return {"params": params, "grads": grads, "optimizer": optimizer}

    @staticmethod
    def _compute(shapes, plan, n):
        numel = [math.prod(s) for s in shapes]
        if plan == "fsdp2":
            local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
            return 4 * local, 4 * local, 8 * local + 4 * len(shapes)
        total = sum(numel)
        if plan == "ddp":
            return 4 * total, 4 * total, 8 * total + 4 * len(shapes)
        if plan == "zero1":
            loads = [0] * n
            mine = []
            for i in sorted(range(len(numel)), key=lambda i: -numel[i]):  # stable: module order
                rank = min(range(n), key=lambda r: (loads[r], r))
                loads[rank] += numel[i]
                if rank == 0:
                    mine.append(numel[i])
            return 4 * total, 4 * total, 8 * sum(mine) + 4 * len(mine)
        raise ValueError(plan)


answer = RankZeroBytes()
