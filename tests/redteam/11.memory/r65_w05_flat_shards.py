# expect: fail FSDP2's shard is taken as ceil(numel / N) of the flattened tensor (FSDP1's flat parameter), not ceil(rows / N) rows
# hint: first dim|dim(ension)? 0|rows?|flat|ceil\(rows|along|pad
# Wrong: FSDP2 cuts each tensor along dimension 0 into ceil(rows/N)-row shards; flattening
# pads by at most one element, so it misses the padding when rows do not divide by N.
import math


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        held = [0] * world_size
        mine = []
        for numel in sorted(numels, reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine.append(numel)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(-(-numel // world_size) for numel in numels)  # each tensor flattened, padded
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
