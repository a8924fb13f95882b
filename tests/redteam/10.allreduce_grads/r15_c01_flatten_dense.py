# expect: pass one flat bucket with torch._utils flatten/unflatten, copied back into each p.grad
# hint: 
import torch
import torch.distributed as dist
from torch._utils import _flatten_dense_tensors, _unflatten_dense_tensors


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = _flatten_dense_tensors(grads)  # a new tensor: one all-reduce for all of them
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    for g, averaged in zip(grads, _unflatten_dense_tensors(flat, grads)):
        g.copy_(averaged)


answer = average_gradients
