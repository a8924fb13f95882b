# expect: pass functools.partial over a general reducer: torch.cat bucket per dtype, split and copy back with p.grad = ...
# hint: 
import functools
from collections import defaultdict

import torch
import torch.distributed as dist


def _reduce_grads(model, op, average):
    by_dtype = defaultdict(list)
    for p in model.parameters():
        if p.grad is not None:
            by_dtype[p.grad.dtype].append(p)
    world = dist.get_world_size()
    for dtype in sorted(by_dtype, key=str):  # the same order on every rank
        params = by_dtype[dtype]
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        dist.all_reduce(flat, op=op)
        if average:
            flat = flat / world
        for p, part in zip(params, torch.split(flat, [p.numel() for p in params])):
            p.grad = part.reshape(p.shape).clone()


average_gradients = functools.partial(_reduce_grads, op=dist.ReduceOp.SUM, average=True)
answer = average_gradients
