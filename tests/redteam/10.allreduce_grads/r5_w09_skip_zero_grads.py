# expect: fail also skips gradients that are all zero on this rank (a rank-dependent decision, and a host read per parameter): the ranks' collectives can differ
# hint: zero|every rank|same collective|order|mismatch|skip|host|sync
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to average
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
