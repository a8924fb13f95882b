# expect: fail ZeRO-1 optimizer state split evenly (8Ψ/N), not dealt as whole tensors
# hint: whole tensor|largest first|fewest|dealt|deal|even(ly)?|8 ?Ψ ?/ ?N|formula|partition
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    n = world_size
    numels = [math.prod(s) for s in shapes]
    psi = sum(numels)
    counters = 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":  # chapter 10's table: the optimizer state divided by N
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": (8 * psi + counters) // n}
    if plan == "fsdp2":
        local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}
    raise ValueError(f"unknown plan {plan!r}")


answer = predict
