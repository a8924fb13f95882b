# expect: fail async all-reduces, but waits only on the last handle before dividing the others
# hint: wait|handle|async
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handle = None
    for g in grads:
        handle = dist.all_reduce(g, async_op=True)
    if handle is not None:
        handle.wait()  # the last one finishes last
    for g in grads:
        g.div_(world)
