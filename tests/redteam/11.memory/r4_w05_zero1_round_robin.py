# expect: fail ZeRO-1 deals tensors round robin in the module's order (tensor i to rank i % N)
# hint: zero|largest|fewest|greedy|whole tensors|partition|owner
import math


def _numel(shape):
    return math.prod(shape)


def _zero1_owned(shapes, world_size):
    """Indices of the tensors rank 0 owns under ZeroRedundancyOptimizer's greedy rule."""
    order = list(range(len(shapes)))  #ORDER
    load = [0] * world_size
    owned = []
    for i in order:
        r = i % world_size  #PICK
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
        return {"params": 4 * total, "grads": 4 * total, "optimizer": 8 * mine + 4 * len(owned)}  #ZERO1
    if plan == "fsdp2":
        local = sum(_shard_numel(s, world_size) for s in shapes)
        return {"params": 4 * local, "grads": 4 * local, "optimizer": 8 * local + 4 * len(shapes)}  #FSDP
    raise ValueError(plan)
