# expect: fail ZeRO-1 reports the most-loaded rank (as the chapter prints max(ranks)), not rank 0
# hint: rank ?0|rank zero|max|largest rank|most
import math


def _sizes(shapes):
    return [math.prod(s) for s in shapes]


def _fsdp2(shapes, n):
    shard = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}


def _ddp(shapes):
    total = sum(_sizes(shapes))
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}


def predict(shapes, plan, world_size):
    if plan == "ddp":
        return _ddp(shapes)
    if plan == "fsdp2":
        return _fsdp2(shapes, world_size)
    sizes = _sizes(shapes)
    order = sorted(range(len(sizes)), key=lambda i: sizes[i], reverse=True)
    loads, counts = [0] * world_size, [0] * world_size
    for i in order:
        rank = loads.index(min(loads))
        loads[rank] += sizes[i]
        counts[rank] += 1
    state = [8 * loads[r] + 4 * counts[r] for r in range(world_size)]
    total = sum(sizes)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": max(state)}  # the rank that matters

answer = predict
