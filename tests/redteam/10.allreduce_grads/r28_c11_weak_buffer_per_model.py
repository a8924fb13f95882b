# expect: pass
# hint:
# name: average_gradients
import weakref

import torch
import torch.distributed as dist

_flat = weakref.WeakKeyDictionary()  # model -> its flat buffer, replaced (never added to) on a new layout


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]  # looked up at every call
    if not grads:
        return
    world = dist.get_world_size()
    if len({(g.dtype, g.device) for g in grads}) > 1:  # mixed dtypes: one all-reduce each
        for g in grads:
            dist.all_reduce(g)
            g.div_(world)
        return
    n = sum(g.numel() for g in grads)
    flat = _flat.get(model)
    if flat is None or flat.numel() != n or flat.dtype != grads[0].dtype:
        flat = _flat[model] = grads[0].new_empty(n)
    torch.cat([g.reshape(-1) for g in grads], out=flat)
    dist.all_reduce(flat)
    flat.div_(world)
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()
