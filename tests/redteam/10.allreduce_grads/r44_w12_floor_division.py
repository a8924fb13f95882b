# expect: fail divides with floor rounding (p.grad.div_(world, rounding_mode="floor")), as integer code would: every average is rounded down to a whole number, so the gradients are mostly 0 or -1.
# hint: round|floor|divide|division|average
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world, rounding_mode="floor")
