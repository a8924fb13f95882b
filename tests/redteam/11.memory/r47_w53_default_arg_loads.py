# expect: fail ZeRO-1's per-rank loads kept in a mutable default argument: they pile up across calls
# hint: default|mutable|accumulat|earlier call|previous call|between calls|state|reset
import math


def predict(shapes, plan, world_size, loads={}):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "fsdp2":
        mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}
    # ZeRO-1: deal whole tensors, largest first, to the rank holding the fewest elements
    held = loads.setdefault(world_size, [[0, 0] for _ in range(world_size)])
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        r = min(range(world_size), key=lambda k: held[k][0])
        held[r][0] += sizes[i]
        held[r][1] += 1
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0][0] + 4 * held[0][1]}


answer = predict
