# expect: pass ZeRO-1 dealt with a heap of (elements, rank), FSDP2 with negative floor division
# hint:
import heapq
import math

FP32 = 4  # bytes per float32 number
MOMENTS = 2  # Adam's exp_avg and exp_avg_sq
STEP = 4  # Adam's float32 step counter, one per tensor it updates


def _adam(elements, tensors):
    return MOMENTS * FP32 * elements + STEP * tensors


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    if plan in ("ddp", "zero1"):
        total = sum(sizes)
        if plan == "ddp":
            mine = sizes
        else:
            heap = [(0, rank) for rank in range(world_size)]  # (elements held, rank)
            order = sorted(range(len(sizes)), key=lambda i: (-sizes[i], i))
            mine = []
            for i in order:
                held, rank = heapq.heappop(heap)
                if rank == 0:
                    mine.append(sizes[i])
                heapq.heappush(heap, (held + sizes[i], rank))
        return {"params": FP32 * total, "grads": FP32 * total, "optimizer": _adam(sum(mine), len(mine))}
    if plan == "fsdp2":
        shard = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": FP32 * shard, "grads": FP32 * shard, "optimizer": _adam(shard, len(shapes))}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
