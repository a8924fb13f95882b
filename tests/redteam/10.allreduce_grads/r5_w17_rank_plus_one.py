# expect: fail world size taken as dist.get_rank() + 1 (right only on the last rank)
# hint: world|get_world_size|rank|divid|average|differ
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_rank() + 1  # ranks count from 0
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
