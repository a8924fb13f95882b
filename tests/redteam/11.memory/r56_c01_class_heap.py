# expect: pass a callable class; ZeRO-1's greedy deal kept in a heap of (elements, rank), so ties go to the lowest rank
# hint:
import heapq
import math


class RankZeroMemory:
    """predict(shapes, plan, world_size) as an object: rank 0's bytes, fp32 Adam."""

    FLOAT = 4  # bytes per float32 number
    MOMENTS = 2  # Adam's exp_avg and exp_avg_sq
    STEP = 4  # Adam's float32 step counter, one per tensor it updates

    def _adam(self, elements, tensors):
        return self.MOMENTS * self.FLOAT * elements + self.STEP * tensors

    def _zero1_owned(self, numels, world_size):
        order = sorted(range(len(numels)), key=lambda i: -numels[i])  # stable: module order on ties
        heap = [(0, rank) for rank in range(world_size)]
        owned = []
        for i in order:
            held, rank = heapq.heappop(heap)  # fewest elements, then lowest rank
            if rank == 0:
                owned.append(numels[i])
            heapq.heappush(heap, (held + numels[i], rank))
        return owned

    def __call__(self, shapes, plan, world_size):
        shapes = [tuple(int(d) for d in s) for s in shapes]
        numels = [math.prod(s) for s in shapes]
        if plan == "fsdp2":
            rows = [-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes]
            kept = sum(rows)
            return {
                "params": self.FLOAT * kept,
                "grads": self.FLOAT * kept,
                "optimizer": self._adam(kept, len(shapes)),
            }
        if plan not in ("ddp", "zero1"):
            raise ValueError(f"plan must be 'ddp', 'zero1' or 'fsdp2', got {plan!r}")
        everything = sum(numels)
        if plan == "ddp":
            optimizer = self._adam(everything, len(numels))
        else:
            owned = self._zero1_owned(numels, world_size)
            optimizer = self._adam(sum(owned), len(owned))
        return {
            "params": self.FLOAT * everything,
            "grads": self.FLOAT * everything,
            "optimizer": optimizer,
        }


answer = RankZeroMemory()
