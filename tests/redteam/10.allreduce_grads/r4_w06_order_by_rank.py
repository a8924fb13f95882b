# expect: fail odd ranks walk the parameters in reverse order: the ranks' collectives do not match
# hint: order|same collective|mismatch|shape|every rank
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    params = [p for p in model.parameters() if p.grad is not None]
    if dist.get_rank() % 2:
        params = params[::-1]  # spread the load: odd ranks start from the end
    for p in params:
        dist.all_reduce(p.grad)
        p.grad /= world
