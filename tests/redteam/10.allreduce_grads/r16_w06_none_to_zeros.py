# expect: fail gradients that are None are replaced by zeros and all-reduced instead of left alone
# hint: None|zeros|zeros_like|leave|unused|no grad
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:  # an unused layer: a zero gradient, so every rank sends the same list
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world
