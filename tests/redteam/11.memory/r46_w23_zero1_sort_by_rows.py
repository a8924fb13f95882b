# expect: fail ZeRO-1 sorts the tensors by their first dimension (rows) instead of their number of elements
# hint: size|element|numel|largest|sort|rows
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for s in sorted(shapes, key=lambda s: s[0], reverse=True):  # largest tensor first
            n = math.prod(s)
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
