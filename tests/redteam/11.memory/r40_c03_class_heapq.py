# expect: pass a class instance with __call__, heapq for ZeRO-1's dealing, integer ceil as -(-a // b)
# hint: 
# name: predict
import heapq
from functools import reduce
from operator import mul

FP32 = 4


def _numel(shape):
    return reduce(mul, shape, 1)


class RankZeroMemory:
    """Bytes rank 0 keeps after an Adam step in float32."""

    def _zero1_rank0(self, shapes, n):
        heap = [(0, rank) for rank in range(n)]  # (elements so far, rank)
        ranked = sorted(enumerate(shapes), key=lambda item: (-_numel(item[1]), item[0]))
        owned = []
        for _, shape in ranked:
            held, rank = heapq.heappop(heap)  # fewest elements, then the lowest rank
            if rank == 0:
                owned.append(_numel(shape))
            heapq.heappush(heap, (held + _numel(shape), rank))
        return 2 * FP32 * sum(owned) + FP32 * len(owned)

    def __call__(self, shapes, plan, world_size):
        every = sum(_numel(s) for s in shapes)
        if plan in ("ddp", "zero1"):
            params = grads = FP32 * every
            if plan == "ddp":
                optimizer = 2 * FP32 * every + FP32 * len(shapes)
            else:
                optimizer = self._zero1_rank0(shapes, world_size)
        elif plan == "fsdp2":
            local = sum(-(-s[0] // world_size) * _numel(s[1:]) for s in shapes)
            params = grads = FP32 * local
            optimizer = 2 * FP32 * local + FP32 * len(shapes)
        else:
            raise ValueError(f"plan must be ddp, zero1 or fsdp2, got {plan!r}")
        return {"optimizer": optimizer, "grads": grads, "params": params}


predict = RankZeroMemory()
