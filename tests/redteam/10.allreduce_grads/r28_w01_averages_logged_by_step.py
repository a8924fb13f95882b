# expect: fail logs each call's averaged gradients in a dict keyed by a call counter, never pruned: a copy of every gradient per step stays alive, and memory grows with the length of the run
# hint: (keep|kept|hold|held|grow)\w*.{0,80}(every call|each (call|step)|per step|memory)|memory.{0,30}grow
# name: average_gradients
import itertools

import torch
import torch.distributed as dist

_CALLS = itertools.count()
AVERAGES = {}  # call number -> {name: averaged gradient}, to plot later


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    log = AVERAGES.setdefault(next(_CALLS), {})
    for name, p in model.named_parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
        log[name] = p.grad.clone()
