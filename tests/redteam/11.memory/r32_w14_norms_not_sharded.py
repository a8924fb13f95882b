# expect: fail FSDP2 keeps 1-D tensors (the norms' gains) whole on every rank instead of sharding them too.
# hint: every tensor|1-?d|norm|ceil|rows|shard
import math


def predict(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        order = sorted(range(len(shapes)), key=lambda i: (-numels[i], i))
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
            rows = math.ceil(s[0] / world_size) if len(s) > 1 else s[0]
            shard += rows * math.prod(s[1:])
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(plan)


answer = predict
