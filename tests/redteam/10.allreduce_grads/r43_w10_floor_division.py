# expect: fail It divides with //=, floor division, which rounds every averaged gradient down to a whole number instead of dividing it.
# hint: floor|//|divid|average
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad //= world
