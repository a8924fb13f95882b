# expect: fail all-reduces p.grad.cpu() and divides it, never copying back: right only because .cpu() of a CPU tensor is the same tensor (on a GPU p.grad stays local)
# hint: copy|back|cpu|device|p\.grad|in place
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        g = p.grad.cpu()  # gloo works on CPU tensors
        dist.all_reduce(g)
        g /= world
