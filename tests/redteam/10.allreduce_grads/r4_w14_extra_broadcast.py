# expect: fail right values, but a broadcast from rank 0 after every all-reduce (twice the collectives)
# hint: broadcast|extra|collective|one all-reduce|count
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
            dist.broadcast(p.grad, src=0)  # make sure every rank holds rank 0's copy
