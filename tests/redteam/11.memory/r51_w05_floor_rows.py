# expect: fail FSDP2 shard rows as rows // N (floor), missing the padded remainder and tensors with fewer rows than ranks
# hint: ceil|pad|round|fewer rows|remainder
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
        shard = sum((s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}
    sizes = _sizes(shapes)
    order = sorted(range(len(sizes)), key=lambda i: sizes[i], reverse=True)
    loads, mine = [0] * world_size, []
    for i in order:
        rank = loads.index(min(loads))
        loads[rank] += sizes[i]
        if rank == 0:
            mine.append(sizes[i])
    total = sum(sizes)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}

answer = predict
