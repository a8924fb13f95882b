# expect: fail caches which parameters have gradients, refreshed only when their number changes: misses a swap of used layers
# hint: None|which|change|step|cache|every call|average|differ|match
# open: as r48_w13 and r52_w02: the parameters that have a gradient change once, at step 2, in number; a layer used in place of another of the same count is no case of the rank job
import torch.distributed as dist

_with_grad = []  # the parameters that have gradients, found once


def answer(model):
    count = sum(p.grad is not None for p in model.parameters())
    if count != len(_with_grad):  # the set of used layers changed: look again
        _with_grad[:] = [p for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for p in _with_grad:
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
