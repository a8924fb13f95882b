# expect: fail ZeRO-1 gives a tensor to the highest rank on a tie of loads, not the lowest
# hint: tie|lowest rank|highest rank|rank.*tie
import math


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "fsdp2":
        mine = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(sizes)}
    held, count = [0] * world_size, [0] * world_size
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        r = min(range(world_size), key=lambda k: (held[k], -k))  # fewest elements
        held[r] += sizes[i]
        count[r] += 1
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}


answer = predict
