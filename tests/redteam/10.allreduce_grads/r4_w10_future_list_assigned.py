# expect: fail assigns get_future().wait()'s list to p.grad (a TypeError)
# hint: list|future|wait|type
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            p.grad.div_(world)
            p.grad = dist.all_reduce(p.grad, async_op=True).get_future().wait()
