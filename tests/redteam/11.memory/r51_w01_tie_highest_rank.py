# expect: fail ZeRO-1 breaks a tie between equally loaded ranks toward the highest rank, so rank 0 is dealt last
# hint: tie|lowest rank|rank ?0|deal|partition
import math


def predict(shapes, plan, world_size):
    sizes = [math.prod(s) for s in shapes]
    total = sum(sizes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(sizes)}
    if plan == "fsdp2":
        shard = sum(math.ceil(s[0] / world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    loads, mine = [0] * world_size, []
    for size in sorted(sizes, reverse=True):
        # the least loaded rank; max over (-load, rank) picks it, ties by rank
        rank = max(range(world_size), key=lambda r: (-loads[r], r))
        loads[rank] += size
        if rank == 0:
            mine.append(size)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}


answer = predict
