# expect: fail right values by reduce to rank 0 + divide + broadcast: two collectives per gradient instead of one all_reduce
# hint: reduce|broadcast|collective|all_reduce|all-reduce|count
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
        dist.reduce(p.grad, dst=0)
        if dist.get_rank() == 0:
            p.grad /= world
        dist.broadcast(p.grad, src=0)
