# expect: fail FSDP2 shards each flattened tensor (ceil(numel/N)), not ceil(rows/N) rows
# hint: rows|first dim|dimension 0|dim 0|along|flat|numel
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    counters = 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":
        held = [0] * n
        mine = []
        for size in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += size
            if rank == 0:
                mine.append(size)
        return {"params": 4 * psi, "grads": 4 * psi,
                "optimizer": sum(8 * m + 4 for m in mine)}
    if plan == "fsdp2":  # each tensor cut into N padded shards
        local = sum(math.ceil(m / n) for m in numels)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
