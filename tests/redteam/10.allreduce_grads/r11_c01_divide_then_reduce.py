# expect: pass
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    scale = 1.0 / dist.get_world_size()
    for _, p in model.named_parameters():
        g = p.grad
        if g is None:
            continue
        g.mul_(scale)  # as DDP's hook does: divide first, then the sum is the average
        dist.all_reduce(g, op=dist.ReduceOp.SUM)
