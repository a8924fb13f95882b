# expect: fail asserts the world size is 2 (raises on every rank of the 3-rank run)
# hint: world|three|3 ranks|assert|get_world_size|raise
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    assert world == 2, "written for two ranks"
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
