# expect: fail ZeRO-1 ties go to the highest rank instead of the lowest
# hint: tie|lowest|rank 0|fewest|deal
import math


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "zero1":
        loads = [0] * world_size
        mine = []
        for n in sorted(sizes, reverse=True):
            # the rank holding the fewest elements: scan all and keep the last minimum seen
            best = 0
            for r in range(world_size):
                if loads[r] <= loads[best]:
                    best = r
            loads[best] += n
            if best == 0:
                mine.append(n)
        opt = 8 * sum(mine) + 4 * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + 4 * len(sizes)}


answer = predict
