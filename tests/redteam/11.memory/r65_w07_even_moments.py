# expect: fail FSDP2's Adam moments are counted as an even, unpadded share 8*numel/N while parameters and gradients use padded shards
# hint: moment|optimizer|adam|pad|alike|same shards?|ceil
# Wrong: the prompt says FSDP2 shards parameters, gradients and Adam's moments alike: the
# moments live on the same padded ceil(rows/N)-row shards as the parameters.
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
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        moments = sum(8 * numel // world_size for numel in numels)  # Adam's share of each tensor
        return {"params": 4 * local, "grads": 4 * local, "optimizer": moments + 4 * len(shapes)}
    raise ValueError(plan)
