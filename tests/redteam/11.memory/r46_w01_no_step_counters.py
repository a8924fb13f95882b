# expect: fail Adam's 4-byte step counters left out of the optimizer state
# hint: step|counter
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total}
    if plan == "zero1":
        loads, mine = [0] * world_size, 0
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine += n
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own}


answer = predict
