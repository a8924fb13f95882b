# expect: fail divides by dist.get_world_size without calling it (a TypeError on every rank)
# hint: world|get_world_size|typeerror|function|call
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= dist.get_world_size
