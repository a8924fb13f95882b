# expect: fail FSDP2 rewrites the caller's shapes list in place with the shard shapes: the next call on the same list is wrong
# hint: mutat|in place|in-place|modif|chang.*(input|argument|shapes|list)|caller
import math


def predict(shapes, plan, world_size):
    if plan == "fsdp2":
        for i, s in enumerate(shapes):  # each rank keeps ceil(rows / N) rows of every tensor
            shapes[i] = (math.ceil(s[0] / world_size),) + tuple(s[1:])
        mine = sum(math.prod(s) for s in shapes)
        return {"params": 4 * mine, "grads": 4 * mine, "optimizer": 8 * mine + 4 * len(shapes)}
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    held, count = [0] * world_size, [0] * world_size
    for i in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        r = held.index(min(held))
        held[r] += sizes[i]
        count[r] += 1
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * held[0] + 4 * count[0]}


answer = predict
