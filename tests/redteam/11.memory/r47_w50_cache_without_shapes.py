# expect: fail cache keyed on plan and world_size only, not on shapes: stale answer for a new model
# hint: cache|memo|stale|earlier call|previous call|between calls|state kept|same answer
import math

_CACHE = {}  # (plan, world_size) -> answer; the formulas only depend on those, or so it seems


def predict(shapes, plan, world_size):
    key = (plan, world_size)
    if key in _CACHE:
        return dict(_CACHE[key])
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        out = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    elif plan == "zero1":
        held, count = [0] * world_size, [0] * world_size
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            r = held.index(min(held))
            held[r] += sizes[i]
            count[r] += 1
        out = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}
    else:
        mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        out = {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}
    _CACHE[key] = out
    return dict(out)


answer = predict
