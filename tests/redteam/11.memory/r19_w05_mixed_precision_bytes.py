# expect: fail counts mixed precision (bf16 weights and gradients at 2 bytes, 12 bytes of fp32 master and moments) where the exercise trains in float32
# hint: float32|fp32|4 bytes|bf16|master|mixed|2 bytes|precision
import math

PARAM, GRAD, STATE = 2, 2, 12  # the Playbook's bf16 weights, bf16 grads, fp32 master + 2 moments


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    numels = [math.prod(s) for s in shapes]
    psi, n = sum(numels), world_size
    if plan == "ddp":
        return {"params": PARAM * psi, "grads": GRAD * psi,
                "optimizer": STATE * psi + 4 * len(numels)}
    if plan == "zero1":
        load, mine = [0] * n, []
        for size in sorted(numels, reverse=True):
            rank = load.index(min(load))
            load[rank] += size
            if rank == 0:
                mine.append(size)
        return {"params": PARAM * psi, "grads": GRAD * psi,
                "optimizer": STATE * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": PARAM * local, "grads": GRAD * local,
                "optimizer": STATE * local + 4 * len(numels)}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
