# expect: fail ZeRO-1 deals tensors in the module's order instead of largest first
# hint: largest|sort|order|size|first
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads = [0] * world_size
        owned = [[] for _ in range(world_size)]
        for n in sizes:  # the module's order
            r = min(range(world_size), key=lambda k: loads[k])
            loads[r] += n
            owned[r].append(n)
        opt = 8 * sum(owned[0]) + 4 * len(owned[0])
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
