# expect: fail world size read from WORLD_SIZE with a default of 2 written in
# hint: world|three|3 ranks|get_world_size
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = int(os.environ.get("WORLD_SIZE", 2))
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
