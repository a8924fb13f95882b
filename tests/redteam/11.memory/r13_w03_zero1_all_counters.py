# expect: fail ZeRO-1: step counters of every tensor on rank 0, not only of its own tensors
# hint: step|counter|per tensor|own tensors|owns|tensors (it|rank 0) (updates|owns)
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    counters = 4 * len(shapes)  # one step counter per tensor
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":
        held = [0] * n
        mine = 0
        for size in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += size
            if rank == 0:
                mine += size
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * mine + counters}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
