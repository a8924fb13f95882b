# expect: fail right values, but creates a new process group (dist.new_group()) on every call: a collective set-up per step
# hint: group|new_group|collective|extra|count
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    group = dist.new_group()  # all ranks
    world = dist.get_world_size(group)
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)
            p.grad /= world
