# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for h in handles:
        h.wait()
    n = dist.get_world_size()
    for g in grads:
        g.div_(n)
