# expect: pass one flat buffer per dtype (insertion-ordered dict, the same on every rank) via torch._utils' flatten/unflatten helpers; a single blocking all-reduce per group, divided, then copied back with torch._foreach_copy_
# hint:
# name: average_gradients
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    groups = {}
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault(p.grad.dtype, []).append(p.grad)
    world = dist.get_world_size()
    for grads in groups.values():
        flat = _flatten_dense_tensors(grads)
        dist.all_reduce(flat)
        flat /= world
        torch._foreach_copy_(grads, list(_unflatten_dense_tensors(flat, grads)))
