# expect: pass one flat all-reduce per dtype with torch._utils flatten/unflatten, copied back in place
# hint:
from collections import defaultdict

import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = defaultdict(list)  # dtype -> grads, in parameter order (the same on every rank)
    for p in model.parameters():
        if p.grad is not None:
            groups[p.grad.dtype].append(p.grad)
    world = dist.get_world_size()
    for dtype in sorted(groups, key=str):  # same order of collectives on every rank
        grads = groups[dtype]
        flat = _flatten_dense_tensors(grads)
        dist.all_reduce(flat)
        flat.div_(world)
        for g, avg in zip(grads, _unflatten_dense_tensors(flat, grads)):
            g.copy_(avg)


answer = average_gradients
