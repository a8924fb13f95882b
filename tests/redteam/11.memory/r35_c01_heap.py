# expect: pass ZeRO-1's deal simulated with a heap of (elements held, rank), FSDP2's padded shards from ceil(rows / N), 4-byte step counters per updated tensor.
# hint:
# name: predict
import heapq
import math


def predict(shapes, plan, world_size):
    n = world_size
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(numels)}
    if plan == "zero1":
        # largest first, ties in module order (sorted is stable); each to the least-loaded rank,
        # the lowest rank on a tie: (load, rank) tuples order exactly so
        order = sorted(range(len(numels)), key=lambda i: -numels[i])
        heap = [(0, r) for r in range(n)]
        mine = []
        for i in order:
            load, rank = heapq.heappop(heap)
            if rank == 0:
                mine.append(numels[i])
            heapq.heappush(heap, (load + numels[i], rank))
        return {"params": 4 * total, "grads": 4 * total,
                "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) if len(s) else 1 for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(numels)}
    raise ValueError(f"plan must be 'ddp', 'zero1' or 'fsdp2', got {plan!r}")


answer = predict
