# expect: fail ZeRO-1 counts a step counter for every tensor, not only those rank 0 updates
# hint: step|counter
import math


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    counters = 4 * len(sizes)  # Adam's step: 4 bytes per tensor
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + counters}
    if plan == "fsdp2":
        mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + counters}
    held = [0] * world_size
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        held[held.index(min(held))] += sizes[i]
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + counters}


answer = predict
