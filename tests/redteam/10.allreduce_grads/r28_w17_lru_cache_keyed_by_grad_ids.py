# expect: fail caches the flat layout with functools.lru_cache(maxsize=None) keyed by the ids of the current gradient tensors: zero_grad() (set_to_none) makes new gradients every step, so every call adds an entry that also holds the old gradients and its buffer alive; memory grows with each call.
# hint: (lru_cache|cache|grow|grows|growing|each call|every call|id\(|ids|unbounded|leak|holds? (the )?old)
# name: average_gradients
import functools

import torch
import torch.distributed as dist


@functools.lru_cache(maxsize=None)
def _plan(grads):
    """A flat buffer and the split sizes for this tuple of gradients (planned once)."""
    return torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype), [g.numel() for g in grads]


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = tuple(p.grad for p in model.parameters() if p.grad is not None)  # tensors hash by id
    if not grads:
        return
    if len({g.dtype for g in grads}) > 1:  # mixed dtypes: one at a time
        for g in grads:
            dist.all_reduce(g)
            g.div_(dist.get_world_size())
        return
    flat, sizes = _plan(grads)
    torch.cat([g.reshape(-1) for g in grads], out=flat)
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    for g, part in zip(grads, flat.split(sizes)):
        g.copy_(part.view_as(g))
