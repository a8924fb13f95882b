# expect: fail averages the parameters (p.data), not their gradients
# hint: grad|parameter
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    with torch.no_grad():
        for p in model.parameters():
            if p.grad is not None:
                dist.all_reduce(p.data)
                p.data /= world
