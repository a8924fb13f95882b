# expect: fail cache keyed on the total element count, not the shapes: another model of the same size gets a stale answer
# hint: cache|memo|stale|earlier call|previous call|between calls|state kept|key
import math

_memo = {}


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    key = (sum(sizes), len(sizes), plan, world_size)  # cheap key: the model's size and tensors
    if key not in _memo:
        total = sum(sizes)
        if plan == "ddp":
            _memo[key] = (4 * total, 4 * total, 8 * total + 4 * len(sizes))
        elif plan == "zero1":
            held, count = [0] * world_size, [0] * world_size
            for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
                r = held.index(min(held))
                held[r] += sizes[i]
                count[r] += 1
            _memo[key] = (4 * total, 4 * total, 8 * held[0] + 4 * count[0])
        else:
            mine = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
            _memo[key] = (4 * mine, 4 * mine, 8 * mine + 4 * len(sizes))
    p, g, o = _memo[key]
    return {"params": p, "grads": g, "optimizer": o}


answer = predict
