# expect: fail caches ZeRO-1's deal by the model's shapes alone, so a second call on another world size reuses the first call's partition
# hint: cach|memo|second call|world.?size|stale|reus|another (number of )?ranks
# Wrong: the partition depends on N; the first call's (say 8 ranks) is returned again for
# 3 and 2 ranks. Each first call per model is right.
import math

_partition = {}  # the model's shapes -> the numels dealt to rank 0


def _rank0_numels(shapes, world_size):
    key = tuple(tuple(s) for s in shapes)
    if key not in _partition:
        held = [0] * world_size
        mine = []
        for numel in sorted((math.prod(s) for s in shapes), reverse=True):
            rank = held.index(min(held))
            held[rank] += numel
            if rank == 0:
                mine.append(numel)
        _partition[key] = mine
    return _partition[key]


def answer(shapes, plan, world_size):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}
    if plan == "zero1":
        mine = _rank0_numels(shapes, world_size)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * sum(mine) + 4 * len(mine)}
    if plan == "fsdp2":
        local = sum(-(-s[0] // world_size) * math.prod(s[1:]) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}
    raise ValueError(plan)
