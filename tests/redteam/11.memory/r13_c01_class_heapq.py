# expect: pass class with __call__, heapq for ZeRO-1's dealing
# hint: 
import heapq
import math


class RankZeroMemory:
    """Bytes rank 0 holds after an fp32 Adam step: params, grads, optimizer."""

    FP32 = 4

    def _zero1_owned(self, numels, n):
        order = sorted(range(len(numels)), key=lambda i: (-numels[i], i))
        heap = [(0, r) for r in range(n)]  # (elements held, rank): ties go to the lowest rank
        owned = []
        for i in order:
            held, rank = heapq.heappop(heap)
            if rank == 0:
                owned.append(i)
            heapq.heappush(heap, (held + numels[i], rank))
        return owned

    def __call__(self, shapes, plan, world_size):
        numels = [math.prod(s) for s in shapes]
        total = sum(numels)
        if plan == "ddp":
            kept, state_elems, counters = total, total, len(numels)
        elif plan == "zero1":
            owned = self._zero1_owned(numels, world_size)
            kept, state_elems, counters = total, sum(numels[i] for i in owned), len(owned)
        elif plan == "fsdp2":
            kept = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
            state_elems, counters = kept, len(numels)
        else:
            raise ValueError(plan)
        return {
            "params": self.FP32 * kept,
            "grads": self.FP32 * kept,
            "optimizer": 2 * self.FP32 * state_elems + 4 * counters,
        }


answer = RankZeroMemory()
