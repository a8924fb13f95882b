# expect: fail gives parameters without a gradient a zero gradient instead of leaving them None
# hint: none|leave|alone|zero|unused|no grad
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:  # same collectives on every rank, whatever was used
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad.div_(n)


answer = average_gradients
