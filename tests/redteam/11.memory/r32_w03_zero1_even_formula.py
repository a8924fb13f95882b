# expect: fail ZeRO-1 divides the moments and counters evenly (8Ψ/N) instead of dealing whole tensors greedily.
# hint: whole|tensor|largest|deal|greed|fewest|partition
import math


def predict(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        opt = (8 * total + 4 * len(shapes)) // world_size
        return {"params": 4 * total, "grads": 4 * total, "optimizer": opt}
    if plan == "fsdp2":
        shard = 0
        for s in shapes:
            rows = math.ceil(s[0] / world_size)
            shard += rows * math.prod(s[1:])
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    raise ValueError(plan)


answer = predict
