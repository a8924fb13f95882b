# expect: fail functools.lru_cache on predict itself: shapes is a list, unhashable, so every call raises TypeError
# hint: unhashable|hashable|TypeError|lru_cache|raise
import functools
import math


@functools.lru_cache(maxsize=None)
def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        held, count = [0] * world_size, [0] * world_size
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            r = held.index(min(held))
            held[r] += sizes[i]
            count[r] += 1
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}
    mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}


answer = predict
