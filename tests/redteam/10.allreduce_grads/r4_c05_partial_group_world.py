# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist

def _reduce_grads(model, group=None, average=True):
    group = group if group is not None else dist.group.WORLD
    n = dist.get_world_size(group)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.grad is None:
                continue
            dist.all_reduce(p.grad.data, op=dist.ReduceOp.SUM, group=group)
            if average:
                p.grad.data.copy_(p.grad.data / n)


answer = functools.partial(_reduce_grads, average=True)
