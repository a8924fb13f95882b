# expect: fail all-reduces over dist.new_group([0, 1]): ranks written in, rank 2 of 3 is left out
# hint: world|three|3 ranks|group|every rank|rank 2
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    group = dist.new_group([0, 1])
    world = dist.get_world_size(group)
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, group=group)
            p.grad /= world
