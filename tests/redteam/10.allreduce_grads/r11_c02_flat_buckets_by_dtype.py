# expect: pass
# hint:
# name: average_gradients
from collections import defaultdict

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    buckets = defaultdict(list)  # one flat all-reduce per (device, dtype), in parameter order
    for p in model.parameters():
        if p.grad is not None:
            buckets[(str(p.grad.device), p.grad.dtype)].append(p.grad)
    for key in sorted(buckets, key=str):  # the same order on every rank
        grads = buckets[key]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat.div_(world)
        offset = 0
        for g in grads:
            n = g.numel()
            g.copy_(flat[offset:offset + n].view_as(g))
            offset += n
