# expect: fail ZeRO-1's per-rank loads kept in a module-level list, reset only when the world size changes: a second call on the same N starts from the first call's loads
# hint: state|between calls|global|reset|second call|repeat|again|cach|stale|same (input|answer)
import math

_LOADS = []  # elements each rank holds, reused between calls


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        if len(_LOADS) != world_size:
            _LOADS[:] = [0] * world_size
        mine = []
        for n in sorted(sizes, reverse=True):
            r = _LOADS.index(min(_LOADS))
            _LOADS[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
