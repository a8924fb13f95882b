# expect: fail dist.reduce to rank 0 instead of all_reduce: only rank 0 holds the average, the others keep a local (or partial) gradient
# hint: reduce|all_reduce|all-reduce|every rank|rank [12]|average
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.reduce(p.grad, dst=0)
            p.grad /= world
