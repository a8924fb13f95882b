# expect: pass r11_c01 with all_reduce, get_world_size and ReduceOp imported by name (from torch.distributed import ...)
# hint:
# name: average_gradients
import torch
from torch.distributed import ReduceOp, all_reduce, get_world_size


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    scale = 1.0 / get_world_size()
    for _, p in model.named_parameters():
        g = p.grad
        if g is None:
            continue
        g.mul_(scale)  # as DDP's hook does: divide first, then the sum is the average
        all_reduce(g, op=ReduceOp.SUM)
