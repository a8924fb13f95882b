# expect: pass scales every gradient by 1/world with one torch._foreach_mul_, then sums each over the ranks with a blocking dist.all_reduce, in the order of model.parameters()
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    torch._foreach_mul_(grads, 1.0 / dist.get_world_size())  # the sum of the shares is the mean
    for g in grads:
        dist.all_reduce(g, op=dist.ReduceOp.SUM)
