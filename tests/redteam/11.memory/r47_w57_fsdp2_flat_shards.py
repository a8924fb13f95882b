# expect: fail FSDP2 shards each flattened tensor into ceil(numel / N) elements (FSDP1's flat parameter), not ceil(rows / N) rows
# hint: row|first dim|dim(ension)?[ _]?0|ceil|pad|flat
import math


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "fsdp2":
        mine = sum(math.ceil(n / world_size) for n in sizes)  # each tensor padded to N equal shards
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}
    held, count = [0] * world_size, [0] * world_size
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        r = held.index(min(held))
        held[r] += sizes[i]
        count[r] += 1
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}


answer = predict
