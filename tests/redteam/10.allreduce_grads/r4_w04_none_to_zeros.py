# expect: fail fills None gradients with zeros instead of leaving them alone
# hint: none|leave|alone|unused|zeros
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world
