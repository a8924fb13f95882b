# expect: pass one pass over the tensors accumulating per-kind bytes; ZeRO-1 owner computed first into a list of owners
# hint: 
import math


def answer(shapes, plan, world_size):
    N = world_size
    owners = None
    if plan == "zero1":
        owners = [None] * len(shapes)
        held = [0] * N
        for i in sorted(range(len(shapes)), key=lambda i: math.prod(shapes[i]), reverse=True):
            r = min(range(N), key=lambda k: (held[k], k))
            owners[i] = r
            held[r] += math.prod(shapes[i])
    elif plan not in ("ddp", "fsdp2"):
        raise ValueError(plan)
    out = dict(params=0, grads=0, optimizer=0)
    for i, shape in enumerate(shapes):
        if plan == "fsdp2":
            rows = math.ceil(shape[0] / N)
            elems = rows * math.prod(shape[1:])
        else:
            elems = math.prod(shape)
        out["params"] += 4 * elems
        out["grads"] += 4 * elems
        if plan != "zero1" or owners[i] == 0:
            out["optimizer"] += 4 * 2 * elems + 4
    return out
