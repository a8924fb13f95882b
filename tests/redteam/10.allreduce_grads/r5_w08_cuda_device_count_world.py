# expect: fail world size read as the number of GPUs (torch.cuda.device_count(), at least 1): on the CPU ranks it divides by 1
# hint: world|get_world_size|divid|average|sum|rank
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = max(torch.cuda.device_count(), 1)  # one rank per GPU
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
