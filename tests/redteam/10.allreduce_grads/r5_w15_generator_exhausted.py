# expect: fail model.parameters() kept as a generator and walked twice: the dividing loop sees nothing, so the gradients are summed
# hint: divid|average|world|sum
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    params = model.parameters()
    for p in params:
        if p.grad is not None:
            dist.all_reduce(p.grad)
    world = dist.get_world_size()
    for p in params:
        if p.grad is not None:
            p.grad /= world
