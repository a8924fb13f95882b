# expect: fail right values by all_gather of every rank's gradient then a mean: n times the memory and not the all_reduce asked for
# hint: all_gather|all-gather|gather|all_reduce|all-reduce|collective
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
        parts = [torch.empty_like(p.grad) for _ in range(world)]
        dist.all_gather(parts, p.grad)
        p.grad.copy_(torch.stack(parts).mean(dim=0))
