# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist

class _Averager:
    """A callable object: divide first, then sum (DDP's order)."""
    def __call__(self, model):
        scale = 1.0 / dist.get_world_size()
        for g in filter(lambda t: t is not None, (p.grad for p in model.parameters())):
            g.mul_(scale)
            dist.all_reduce(g, op=dist.ReduceOp.SUM)


answer = _Averager()
