# expect: fail lru_cache helper keyed on the shapes and the plan but not world_size: 3 and 2 ranks get the 8-rank answer
# hint: cache|memo|stale|world.?size|earlier call|previous call|between calls|state kept|key
import functools
import math

_WORLD = [8]


@functools.lru_cache(maxsize=None)
def _bytes(shapes, plan):  # shapes: a tuple of tuples, hashable
    n = _WORLD[0]
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return 4 * total, 4 * total, 8 * total + 4 * len(sizes)
    if plan == "zero1":
        held, count = [0] * n, [0] * n
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            r = held.index(min(held))
            held[r] += sizes[i]
            count[r] += 1
        return 4 * total, 4 * total, 8 * held[0] + 4 * count[0]
    mine = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return 4 * mine, 4 * mine, 8 * mine + 4 * len(sizes)


def predict(shapes, plan, world_size):
    _WORLD[0] = world_size
    p, g, o = _bytes(tuple(tuple(s) for s in shapes), plan)
    return {"params": p, "grads": g, "optimizer": o}


answer = predict
