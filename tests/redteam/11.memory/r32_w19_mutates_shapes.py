# expect: fail Sorts the caller's shapes list in place (largest first) for the ZeRO-1 deal: a side effect on the input.
# hint: mutat|modif|in place|input|shapes|changed
import math


def predict(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        shapes.sort(key=math.prod, reverse=True)  # largest first (stable: module order on ties)
        numels = [math.prod(s) for s in shapes]
        order = range(len(shapes))
        load = [0] * world_size
        mine = []
        for i in order:
            r = min(range(world_size), key=lambda k: (load[k], k))
            load[r] += numels[i]
            if r == 0:
                mine.append(i)
        opt = sum(8 * numels[i] + 4 for i in mine)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    if plan == "fsdp2":
        shard = 0
        for s in shapes:
            rows = math.ceil(s[0] / world_size)
            shard += rows * math.prod(s[1:])
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(plan)


answer = predict
