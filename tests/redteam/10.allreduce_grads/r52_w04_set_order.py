# expect: fail iterates a set of parameters, whose order (by id) need not be the same on every rank
# hint: order|same collectives|set|mismatch|differ
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    with_grad = {p for p in model.parameters() if p.grad is not None}  # unique, fast lookup
    n = dist.get_world_size()
    for p in with_grad:
        dist.all_reduce(p.grad)
        p.grad.div_(n)


answer = average_gradients
