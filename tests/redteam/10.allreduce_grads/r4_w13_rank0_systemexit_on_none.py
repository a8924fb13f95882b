# expect: fail rank 0 calls sys.exit on a None gradient (the others skip it and lose their peer)
# hint: none|no grad|without a gradient|skip|leave|sys\\.?exit|systemexit
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for i, p in enumerate(model.parameters()):
        if p.grad is None:
            if dist.get_rank() == 0:  # report it once
                sys.exit(f"parameter {i} has no gradient: is a layer unused?")
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
