# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    for g in reversed(grads):  # the same order on every rank
        dist.all_reduce(g, op=dist.ReduceOp.SUM, group=dist.group.WORLD)
    if grads:
        torch._foreach_div_(grads, float(dist.get_world_size(group=dist.group.WORLD)))
