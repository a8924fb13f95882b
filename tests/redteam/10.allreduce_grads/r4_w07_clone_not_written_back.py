# expect: fail all-reduces and divides a clone of each gradient, never written back into p.grad
# hint: in place|p\.grad|copy|clone|back|unchanged
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            g = p.grad.clone()
            dist.all_reduce(g)
            g = g / world
