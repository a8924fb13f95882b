# expect: fail returns the same module-level dict every call and overwrites it: an earlier answer changes after the next call
# hint: same (dict|object)|shared|alias|reuse|overwr|chang(es|ed) after|later call|mutat
import math

_RESULT = {"params": 0, "grads": 0, "optimizer": 0}  # one dict, refilled: no allocation per call


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        kept, opt = total, 2 * total
        counters = len(sizes)
    elif plan == "zero1":
        held, count = [0] * world_size, [0] * world_size
        for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
            r = held.index(min(held))
            held[r] += sizes[i]
            count[r] += 1
        kept, opt, counters = total, 2 * held[0], count[0]
    else:
        kept = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        opt, counters = 2 * kept, len(sizes)
    _RESULT["params"] = 4 * kept
    _RESULT["grads"] = 4 * kept
    _RESULT["optimizer"] = 4 * opt + 4 * counters
    return _RESULT


answer = predict
