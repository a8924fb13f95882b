# expect: fail FSDP2 shard rows by floor division rows // N instead of ceil: no padding, short on uneven tensors
# hint: ceil|pad|round|uneven|divisib|rows
import math


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "fsdp2":
        mine = sum(max(s[0] // world_size, 1) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}
    held, count = [0] * world_size, [0] * world_size
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        r = held.index(min(held))
        held[r] += sizes[i]
        count[r] += 1
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}


answer = predict
