# expect: fail returns MiB (bytes / 2**20, as the chapter prints) instead of bytes
# hint: byte|unit|MiB|2\*\*20|1024|scale|factor
import math

MiB = 2**20


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        got = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    elif plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        got = {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    else:
        own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        got = {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}
    return {k: v / MiB for k, v in got.items()}


answer = predict
