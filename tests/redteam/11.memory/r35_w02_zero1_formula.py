# expect: fail uses the Playbook formula 8Ψ/N for ZeRO-1's optimizer state, though ZeroRedundancyOptimizer deals whole tensors, so rank 0 holds what its tensors add up to.
# hint: whole|tensor|largest|deal|partition|rank 0|formula
# name: predict
import math


def predict(shapes, plan, world_size):
    n = world_size
    psi = sum(math.prod(s) for s in shapes)
    counters = 4 * len(shapes)
    if plan == "ddp":
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": 8 * psi + counters}
    if plan == "zero1":  # optimizer state sharded N ways
        return {"params": 4 * psi, "grads": 4 * psi, "optimizer": (8 * psi + counters) // n}
    local = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + counters}

answer = predict
