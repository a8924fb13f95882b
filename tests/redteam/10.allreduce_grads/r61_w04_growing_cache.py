# expect: fail keeps a flat buffer per set of gradient tensors in a dict keyed by their ids, which gains an entry (and keeps old gradients alive) every time backward makes new grad tensors
# hint: grow|grows|memory|leak|cache|buffer|kept|keep|every call|each call|retain|bounded
import torch
import torch.distributed as dist

_buffers = {}  # reuse the flat buffer between steps


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    key = tuple(id(g) for g in grads)
    if key not in _buffers:
        flat = torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype)
        _buffers[key] = (grads, flat)
    _, flat = _buffers[key]
    offset = 0
    for g in grads:
        flat[offset : offset + g.numel()].copy_(g.reshape(-1))
        offset += g.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()


answer = average_gradients
