# expect: fail uses dist.reduce to rank 0 instead of dist.all_reduce, so only rank 0 ends with the average
# hint: all_reduce|all-reduce|reduce|rank 0|every rank|other ranks?|dst|broadcast|differ
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.reduce(p.grad, dst=0)  # sum the gradient over the ranks
            p.grad /= world


answer = average_gradients
