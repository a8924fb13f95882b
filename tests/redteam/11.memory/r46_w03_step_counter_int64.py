# expect: fail step counter counted as an 8-byte int64 instead of a 4-byte float32
# hint: step|counter|4.?b|float32|int64|8.?b
import math

import torch

# Adam's step is an integer count; torch keeps integers as int64
STEP_BYTES = torch.tensor(0).element_size()


def predict(shapes, plan, world_size):
    """Rank 0's bytes of parameters, gradients and Adam's state under plan, fp32."""
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        opt = 8 * total + STEP_BYTES * len(sizes)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    if plan == "zero1":
        loads, mine = [0] * world_size, []
        for n in sorted(sizes, reverse=True):
            r = loads.index(min(loads))
            loads[r] += n
            if r == 0:
                mine.append(n)
        opt = 8 * sum(mine) + STEP_BYTES * len(mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    own = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * own, "grads": 4 * own, "optimizer": 8 * own + STEP_BYTES * len(sizes)}


answer = predict
