# expect: fail ZeRO-1 partition cached per (world_size, number of tensors): a second model with as many tensors reuses the first one's deal
# hint: cach|stale|previous|state|call|shape
import math


def _sizes(shapes):
    return [math.prod(s) for s in shapes]


def _fsdp2(shapes, n):
    shard = sum(math.ceil(s[0] / n) * math.prod(s[1:]) for s in shapes)
    return {"params": 4 * shard, "grads": 4 * shard, "optimizer": 8 * shard + 4 * len(shapes)}


def _ddp(shapes):
    total = sum(_sizes(shapes))
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}


_PARTITIONS = {}


def _rank0_sizes(sizes, world_size):
    key = (world_size, len(sizes))  # the deal depends on the ranks and the tensors
    if key not in _PARTITIONS:
        order = sorted(range(len(sizes)), key=lambda i: sizes[i], reverse=True)
        loads, mine = [0] * world_size, []
        for i in order:
            rank = loads.index(min(loads))
            loads[rank] += sizes[i]
            if rank == 0:
                mine.append(i)
        _PARTITIONS[key] = mine
    return [sizes[i] for i in _PARTITIONS[key]]


def predict(shapes, plan, world_size):
    if plan == "ddp":
        return _ddp(shapes)
    if plan == "fsdp2":
        return _fsdp2(shapes, world_size)
    sizes = _sizes(shapes)
    mine = _rank0_sizes(sizes, world_size)
    total = sum(sizes)
    return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}

answer = predict
