# expect: fail world size written in: divides by 2
# hint: world|three|3 ranks|get_world_size|/ ?2
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= 2
