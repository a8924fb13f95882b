# expect: fail FSDP2 shards as Ψ/N evenly, ignoring the ceil(rows/N) padding
# hint: ceil|pad|rows|first dim|dimension 0|dim 0|uneven|round(ed|ing)? up
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
    if plan == "fsdp2":  # everything divided by N
        return {"params": 4 * psi // n, "grads": 4 * psi // n,
                "optimizer": 8 * psi // n + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
