# expect: fail memoizes answers by id(shapes): a list changed (or a new list at a recycled id) gets the stale answer
# hint: state|between calls|cach|memo|stale|id\(|same (input|answer)|repeat|again
import math

_MEMO = {}


def _compute(shapes, plan, world_size):
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
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    key = (id(shapes), plan, world_size)  # lists are unhashable; the same list, the same answer
    if key not in _MEMO:
        _MEMO[key] = _compute(shapes, plan, world_size)
    return dict(_MEMO[key])


answer = predict
