# expect: fail all-reduces every p.grad without skipping the None ones
# hint: none|no grad|without a gradient|skip
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        dist.all_reduce(p.grad)
        p.grad /= world
