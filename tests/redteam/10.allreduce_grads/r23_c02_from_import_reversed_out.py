# expect: pass names imported with `from torch.distributed import ...` at import time, parameters walked last layer first (as DDP's buckets are), division written as torch.div(..., out=g)
# hint: 
import torch
from torch.distributed import all_reduce, get_world_size


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = get_world_size()
    # last layer first, like DDP: the order is the same on every rank
    for p in reversed(list(model.parameters())):
        g = p.grad
        if g is None:
            continue
        all_reduce(g)  # sum over the ranks, in place
        torch.div(g, n, out=g)
