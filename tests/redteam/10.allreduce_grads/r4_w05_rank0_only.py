# expect: fail only rank 0 calls all_reduce (a collective on one rank), then broadcasts nothing
# hint: every rank|rank 0|one rank|same collective|all ranks|hang|timed? ?out|peer
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    if dist.get_rank() == 0:  # rank 0 does the averaging
        for p in model.parameters():
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= world
