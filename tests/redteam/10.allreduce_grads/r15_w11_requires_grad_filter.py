# expect: fail skips on requires_grad instead of p.grad is None: all_reduce(None) raises on an unused layer
# hint: none|no grad|without (a )?grad|requires_grad|unused|nonetype
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if not p.requires_grad:  # frozen parameters have no gradient
            continue
        dist.all_reduce(p.grad)
        p.grad /= world


answer = average_gradients
