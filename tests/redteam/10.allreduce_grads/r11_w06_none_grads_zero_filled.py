# expect: fail gives parameters whose grad is None a zero gradient and all-reduces it, instead of leaving them alone (p.grad stays None)
# hint: \bNone\b|zeros?(_like)?|unused|no gradient|left alone|leave.*alone
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:  # same collectives on every rank: give it a gradient of zeros
            p.grad = torch.zeros_like(p)
        dist.all_reduce(p.grad)
        p.grad /= world
