# expect: pass the gradients in reverse parameter order (as backward makes them), each summed with an explicit group=dist.group.WORLD and op=ReduceOp.SUM, then divided with torch.div(..., out=)
# hint:
# name: average_gradients
import torch
import torch.distributed as dist
from torch.distributed import ReduceOp


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    group = dist.group.WORLD
    n = dist.get_world_size(group=group)
    for p in reversed(list(model.parameters())):
        g = p.grad
        if g is None:
            continue
        dist.all_reduce(g, op=ReduceOp.SUM, group=group)
        torch.div(g, n, out=g)
