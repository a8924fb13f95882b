# expect: fail FSDP2 step counters divided over the ranks like the moments, instead of one per tensor on every rank
# hint: step|counter
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    counters = 4 * math.ceil(len(sizes) / world_size)  # FSDP2 shards all of Adam's state
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + counters}


answer = predict
