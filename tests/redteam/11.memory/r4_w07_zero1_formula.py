# expect: fail ZeRO-1 optimizer state from the formula 8 x total / N (even split) plus counters, not whole tensors
# hint: whole tensors|largest|fewest|zero|partition|formula
import math


def _numel(shape):
    return math.prod(shape)


def _zero1_owned(shapes, world_size):
    """Indices of the tensors rank 0 owns under ZeroRedundancyOptimizer's greedy rule."""
    order = sorted(range(len(shapes)), key=lambda i: -_numel(shapes[i]))  #ORDER
    load = [0] * world_size
    owned = []
    for i in order:
        r = min(range(world_size), key=lambda k: load[k])  #PICK
        load[r] += _numel(shapes[i])
        if r == 0:
            owned.append(i)
    return owned


def _shard_numel(shape, world_size):
    rows = shape[0]
    return math.ceil(rows / world_size) * math.prod(shape[1:])  #SHARD


def answer(shapes, plan, world_size):
    shapes = [tuple(s) for s in shapes]
    total = sum(_numel(s) for s in shapes)
    if plan == "ddp":
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total + 4 * len(shapes)}  #DDP
    if plan == "zero1":
        owned = _zero1_owned(shapes, world_size)
        mine = sum(_numel(shapes[i]) for i in owned)
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * total // world_size + 4 * len(owned)}  #ZERO1
    if plan == "fsdp2":
        local = sum(_shard_numel(s, world_size) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}  #FSDP
    raise ValueError(plan)
