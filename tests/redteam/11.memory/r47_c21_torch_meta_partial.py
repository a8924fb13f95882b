# expect: pass builds meta tensors with torch, dict comprehension and functools.partial per plan
# hint:
import functools
import math

import torch

KINDS = ("params", "grads", "optimizer")


def _state(kept, updated, counters):
    return dict(zip(KINDS, (4 * kept, 4 * kept, 8 * updated + 4 * counters)))


def _ddp(tensors, world_size):
    total = sum(t.numel() for t in tensors)
    return _state(total, total, len(tensors))


def _zero1(tensors, world_size):
    total = sum(t.numel() for t in tensors)
    loads = [0] * world_size
    owned = [[] for _ in range(world_size)]
    for t in sorted(tensors, key=lambda t: t.numel(), reverse=True):  # stable sort
        rank = min(range(world_size), key=loads.__getitem__)  # min keeps the first: lowest rank
        loads[rank] += t.numel()
        owned[rank].append(t)
    return _state(total, sum(t.numel() for t in owned[0]), len(owned[0]))


def _fsdp2(tensors, world_size):
    rows = [math.ceil(t.shape[0] / world_size) for t in tensors]
    local = sum(r * t[0].numel() for r, t in zip(rows, tensors))  # t[0]: one row's elements
    return _state(local, local, len(tensors))


PLANS = {"ddp": _ddp, "zero1": _zero1, "fsdp2": _fsdp2}


def _predict(shapes, plan, world_size, *, plans):
    tensors = [torch.empty(tuple(s), device="meta") for s in shapes]
    return plans[plan](tensors, world_size)


answer = functools.partial(_predict, plans=PLANS)
