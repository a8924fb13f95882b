# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    world = dist.get_world_size()
    futs = []
    for p in model.parameters():
        if p.grad is None:
            continue
        fut = dist.all_reduce(p.grad, async_op=True).get_future()
        futs.append(fut.then(lambda f, g=p.grad: g.div_(world)))
    torch.futures.wait_all(futs)
