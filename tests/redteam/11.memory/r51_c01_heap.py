# expect: pass a heap of (load, rank) for ZeRO-1's dealing, per-kind sums in one loop
# hint:
import heapq
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    shapes = [tuple(s) for s in shapes]
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total,
                "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        order = sorted(range(len(sizes)), key=lambda i: -sizes[i])  # stable: module order on ties
        heap = [(0, rank) for rank in range(world_size)]
        mine = []
        for i in order:
            load, rank = heapq.heappop(heap)
            if rank == 0:
                mine.append(sizes[i])
            heapq.heappush(heap, (load + sizes[i], rank))
        return {"params": 4 * total, "grads": 4 * total,
                "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        shard = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * shard, "grads": 4 * shard,
                "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
