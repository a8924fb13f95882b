# expect: fail sorts the caller's shapes list in place (largest first), leaving it out of the module's order
# hint: mutat|modif|chang|in.?place|input|shapes|caller|order
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    total = sum(math.prod(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first; sort is stable
        loads, mine = [0] * world_size, []
        for s in shapes:
            r = loads.index(min(loads))
            loads[r] += math.prod(s)
            if r == 0:
                mine.append(math.prod(s))
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(shapes)}


answer = predict
