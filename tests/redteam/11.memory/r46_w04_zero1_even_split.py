# expect: fail ZeRO-1 state split evenly (8Ψ/N, chapter 10's formula) instead of dealt as whole tensors
# hint: whole|largest|deal|partition|even|ZeroRedundancy|tensor.*rank|formula
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total, count = sum(sizes), len(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * count}
    if plan == "zero1":
        # each rank updates 1/N of the parameters: 8Ψ/N of moments, and its share of counters
        opt = math.ceil(8 * total / world_size) + 4 * math.ceil(count / world_size)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * count}


answer = predict
