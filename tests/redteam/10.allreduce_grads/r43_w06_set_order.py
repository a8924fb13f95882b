# expect: fail It walks the parameters through a set, whose order follows each process's object addresses, so ranks can issue their all-reduces in different orders and sum mismatched gradients.
# hint: order|same order|set|collectives
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in set(model.parameters()):  # each parameter once, even if shared
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
