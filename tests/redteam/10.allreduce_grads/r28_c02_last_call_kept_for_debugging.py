# expect: pass keeps the last call's averaged flat gradients in a module-level variable for debugging, replaced at every call (one copy at most, not one per step)
# hint:
# name: average_gradients
import torch
import torch.distributed as dist

LAST = None  # the last call's averaged gradients, flat


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    global LAST
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
    LAST = flat
