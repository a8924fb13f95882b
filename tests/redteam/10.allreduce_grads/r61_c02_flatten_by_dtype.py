# expect: pass one flat all-reduce per dtype with torch._utils flatten/unflatten helpers, copied back into the same p.grad tensors in their own dtype
# hint:
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = {}
    for p in model.parameters():  # same order on every rank
        if p.grad is not None:
            groups.setdefault(p.grad.dtype, []).append(p.grad)
    world = dist.get_world_size()
    for dtype in sorted(groups, key=str):  # the same order of collectives everywhere
        grads = groups[dtype]
        flat = _flatten_dense_tensors(grads)  # keeps the dtype
        dist.all_reduce(flat)
        flat.div_(world)
        for g, averaged in zip(grads, _unflatten_dense_tensors(flat, grads)):
            g.copy_(averaged)


answer = average_gradients
