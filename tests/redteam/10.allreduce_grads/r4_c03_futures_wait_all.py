# expect: pass
# hint: 
import os
import sys
import functools
import torch
import torch.distributed as dist

def answer(model):
    world = dist.get_world_size()
    params = [p for p in model.parameters() if p.grad is not None]
    futs = [dist.all_reduce(p.grad, async_op=True).get_future() for p in params]
    results = torch.futures.wait_all(futs)
    for p, (summed,) in zip(params, results):
        p.grad = summed / world
