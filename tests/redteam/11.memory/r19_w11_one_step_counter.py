# expect: fail counts one 4-byte step counter for the whole optimizer, where Adam keeps one per tensor it updates
# hint: step|counter|per tensor|each tensor|every tensor|4 ?\*? ?len
import math

STEP = 4  # Adam's step count


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + STEP}
    if plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        return {"params": 4 * psi, "grads": 4 * psi,
                "optimizer": 8 * sum(mine) + (STEP if mine else 0)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + STEP}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
