# expect: pass
# hint:
# Right: a callable class instance; FSDP2's first shard counted as rows // N plus one when
# rows do not divide (the same as ceil), ZeRO-1 dealt with an explicit argmin loop.
import math


class RankZeroMemory:
    """Rank 0's bytes of fp32 parameters, gradients and Adam's state after a step."""

    FLOAT = 4

    def _ddp(self, numels):
        total = sum(numels)
        return total, total, 2 * total, len(numels)

    def _zero1(self, numels, world_size):
        total = sum(numels)
        order = sorted(range(len(numels)), key=lambda i: numels[i], reverse=True)
        held = [0] * world_size
        mine = []
        for i in order:
            best = 0
            for rank in range(1, world_size):
                if held[rank] < held[best]:  # strictly fewer: the lowest rank wins a tie
                    best = rank
            held[best] += numels[i]
            if best == 0:
                mine.append(numels[i])
        return total, total, 2 * sum(mine), len(mine)

    def _fsdp2(self, shapes, world_size):
        local = 0
        for shape in shapes:
            rows = shape[0] // world_size + (1 if shape[0] % world_size else 0)
            local += rows * math.prod(shape[1:])
        return local, local, 2 * local, len(shapes)

    def __call__(self, shapes, plan, world_size):
        shapes = [tuple(s) for s in shapes]
        numels = [math.prod(s) for s in shapes]
        if plan == "ddp":
            p, g, moments, counters = self._ddp(numels)
        elif plan == "zero1":
            p, g, moments, counters = self._zero1(numels, world_size)
        elif plan == "fsdp2":
            p, g, moments, counters = self._fsdp2(shapes, world_size)
        else:
            raise ValueError(f"unknown plan {plan!r}")
        return {
            "params": self.FLOAT * p,
            "grads": self.FLOAT * g,
            "optimizer": self.FLOAT * moments + 4 * counters,
        }


answer = RankZeroMemory()
