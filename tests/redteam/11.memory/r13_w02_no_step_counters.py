# expect: fail Adam's 4-byte step counters left out
# hint: step|counter|4.byte|per tensor
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi}
    if plan == "zero1":
        held = [0] * n
        mine = 0
        for size in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += size
            if rank == 0:
                mine += size
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * mine}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
