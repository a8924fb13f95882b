# expect: fail caches the flat gradient buffer from the first call and reuses it on later calls without copying the new gradients into it, so from the second step on every rank gets the first step's average
# hint: cache|stale|between calls|first (call|step)|reuse|global|state|persist|buffer.*(refresh|update|copy)|(refresh|update|copy).*buffer
# name: average_gradients
import torch
import torch.distributed as dist

_buffers = {}


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    key = id(model)
    if key not in _buffers:  # allocate the bucket once, as DDP does
        _buffers[key] = torch.cat([g.reshape(-1) for g in grads])
    flat = _buffers[key]
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    for g, chunk in zip(grads, flat.split([g.numel() for g in grads])):
        g.copy_(chunk.view_as(g))
