# expect: fail gives parameters without a gradient a zero gradient and all-reduces it, instead of leaving p.grad None
# hint: none|zero|zeros|leave.*alone|without (a )?grad|no grad|unused|created|extra
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:  # keep every rank in step: an unused layer contributes zeros
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world


answer = average_gradients
