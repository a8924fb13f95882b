# expect: fail ZeRO-1 gives each tensor to the rank holding the fewest tensors, not elements
# hint: element|fewest|numel|load
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
    held = [[] for _ in range(world_size)]
    for i in order:
        rank = min(range(world_size), key=lambda r: len(held[r]))  # the rank with the fewest
        held[rank].append(sizes[i])
    total = sum(sizes)
    return {"params": 4 * total, "grads": 4 * total,
            "optimizer": 8 * sum(held[0]) + 4 * len(held[0])}

answer = predict
