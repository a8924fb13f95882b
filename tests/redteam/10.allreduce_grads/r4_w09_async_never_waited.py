# expect: fail async_op=True and the handles never waited on before dividing
# hint: wait|async|handle
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, async_op=True)
            p.grad /= world
