# expect: pass heapq of (load, rank) for ZeRO-1's deal, plain loops for DDP and FSDP2
# hint:
import heapq
import math

FP32 = 4


def predict(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    if plan == "ddp":
        kept, updated, counters = sum(numels), sum(numels), len(numels)
    elif plan == "zero1":
        kept = sum(numels)
        heap = [(0, rank) for rank in range(world_size)]  # (elements held, rank): ties -> lower rank
        order = sorted(range(len(numels)), key=lambda i: (-numels[i], i))
        updated = counters = 0
        for i in order:
            load, rank = heapq.heappop(heap)
            if rank == 0:
                updated += numels[i]
                counters += 1
            heapq.heappush(heap, (load + numels[i], rank))
    elif plan == "fsdp2":
        kept = 0
        for s in shapes:
            rows = -(-s[0] // world_size)  # ceil(rows / N), the last shards padded
            kept += rows * math.prod(s[1:])
        updated, counters = kept, len(numels)
    else:
        raise ValueError(f"unknown plan {plan!r}")
    return {
        "params": FP32 * kept,
        "grads": FP32 * kept,
        "optimizer": 2 * FP32 * updated + FP32 * counters,
    }


answer = predict
