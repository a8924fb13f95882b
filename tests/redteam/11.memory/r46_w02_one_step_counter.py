# expect: fail one 4-byte step counter for the whole optimizer, not one per tensor it updates
# hint: step|counter|per tensor|each tensor
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    STEP = 4  # Adam's step counter: one float32 scalar
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + STEP}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        return {
            "params": 4 * total,
            "grads": 4 * total,
            "optimizer": 8 * sum(mine) + (STEP if mine else 0),
        }
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + STEP}


answer = predict
