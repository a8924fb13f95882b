# expect: pass functools.partial over a generic predictor, dispatch table of plans, FSDP2 rows via torch.arange().tensor_split
# hint:
import functools
import math

import torch


def _rank0_rows(rows, n):
    # array_split semantics give rank 0 the same ceil(rows / n) rows FSDP2 pads to
    return torch.arange(rows).tensor_split(n)[0].numel()


def _ddp(sizes, shapes, n):
    return sum(sizes), sizes


def _zero1(sizes, shapes, n):
    loads = [0] * n
    mine = []
    for i in sorted(range(len(sizes)), key=lambda i: sizes[i], reverse=True):
        r = loads.index(min(loads))
        loads[r] += sizes[i]
        if r == 0:
            mine.append(sizes[i])
    return sum(sizes), mine


def _fsdp2(sizes, shapes, n):
    local = [_rank0_rows(s[0], n) * math.prod(s[1:]) for s in shapes]
    return sum(local), local


_PLANS = {"ddp": _ddp, "zero1": _zero1, "fsdp2": _fsdp2}


def _predict(shapes, plan, world_size, *, width, moments, step_width):
    shapes = [tuple(s) for s in shapes]  # a copy: the caller's list stays as it was
    sizes = [math.prod(s) for s in shapes]
    kept, updated = _PLANS[plan](sizes, shapes, world_size)
    return {
        "params": width * kept,
        "grads": width * kept,
        "optimizer": moments * width * sum(updated) + step_width * len(updated),
    }


answer = functools.partial(_predict, width=4, moments=2, step_width=4)
