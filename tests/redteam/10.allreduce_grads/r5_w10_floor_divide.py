# expect: fail divides with //= (floor division) instead of /
# hint: divid|average|floor|differ
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad //= world
