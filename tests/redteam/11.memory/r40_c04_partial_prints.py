# expect: pass functools.partial over a general function (bytes per number, moments, counter bytes as keywords), prints a summary line
# hint: 
# name: predict
import functools
import math


def _rank0_bytes(shapes, plan, world_size, *, number_bytes, moments, counter_bytes):
    shapes = list(shapes)  # a copy: the caller's list is left as it is
    numels = [math.prod(s) for s in shapes]
    if plan == "fsdp2":
        kept = [math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes]
        updated = kept
    else:
        kept = numels
        if plan == "ddp":
            updated = numels
        elif plan == "zero1":
            load = [0] * world_size
            updated = []
            for k in sorted(range(len(numels)), key=lambda k: numels[k], reverse=True):
                r = min(range(world_size), key=lambda r: (load[r], r))
                load[r] += numels[k]
                if r == 0:
                    updated.append(numels[k])
        else:
            raise ValueError(plan)
    out = {
        "params": number_bytes * sum(kept),
        "grads": number_bytes * sum(kept),
        "optimizer": moments * number_bytes * sum(updated) + counter_bytes * len(updated),
    }
    print(f"{plan} on {world_size} ranks, rank 0: {out}")
    return out


predict = functools.partial(_rank0_bytes, number_bytes=4, moments=2, counter_bytes=4)
