# expect: fail divides by the world size both before and after the all-reduce (the average divided by n again)
# hint: divid|average|world|twice|differ
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            p.grad /= world
            dist.all_reduce(p.grad)
            p.grad /= world
