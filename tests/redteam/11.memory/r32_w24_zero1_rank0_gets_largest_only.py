# expect: fail ZeRO-1 assumes rank 0 holds only the largest tensor, ignoring the rest of the greedy deal.
# hint: fewest|greed|deal|whole|least|largest
import math


def predict(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        opt = 8 * max(numels) + 4
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    if plan == "fsdp2":
        shard = 0
        for s in shapes:
            rows = math.ceil(s[0] / world_size)
            shard += rows * math.prod(s[1:])
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(plan)


answer = predict
