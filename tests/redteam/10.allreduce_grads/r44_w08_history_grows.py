# expect: fail keeps every step's flat copy of the gradients in a module-level list (for "debugging"): the averages are right, but the memory it holds grows by a full copy of the gradients with each call, which the prompt forbids.
# hint: grow|buffer|keep|memory|each call|leak
# name: average_gradients
import torch
import torch.distributed as dist

_history = []  # the averaged gradients of every step


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, part in zip(grads, flat.split([g.numel() for g in grads])):
        g.copy_(part.view_as(g))
    _history.append(flat)
