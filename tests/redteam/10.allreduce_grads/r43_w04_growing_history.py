# expect: fail It appends every call's flattened, averaged gradients to a module-level list (kept "for inspection"), so memory grows with each training step.
# hint: grow|every call|buffer|memory|leak|keep
# name: average_gradients
import torch
import torch.distributed as dist

_history = []


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    offset = 0
    for g in grads:
        n = g.numel()
        g.copy_(flat[offset : offset + n].view_as(g))
        offset += n
    _history.append(flat)  # for looking at later
