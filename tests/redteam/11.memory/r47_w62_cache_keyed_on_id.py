# expect: fail memo keyed on id(shapes): the same list edited in place, or a new list at a reused address, gets a stale answer
# hint: cache|memo|stale|id\(|identity|earlier call|previous call|between calls|state kept|key
import math

_seen = {}


def predict(shapes, plan, world_size):
    key = (id(shapes), plan, world_size)  # hashing a long list of shapes is slow; its id is not
    if key in _seen:
        return dict(_seen[key])
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
    _seen[key] = out
    return dict(out)


answer = predict
