# expect: fail ZeRO-1's rank 0 keeps a step counter for every tensor, not only the ones it updates
# hint: step|counter|updat|owns
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    counters = 4 * len(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + counters}
    if plan == "zero1":
        loads, mine = [0] * world_size, 0
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine += n
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine + counters}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + counters}


answer = predict
