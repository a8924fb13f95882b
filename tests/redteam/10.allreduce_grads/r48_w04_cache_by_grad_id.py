# expect: fail caches a flat buffer per tuple of id(p.grad): every step whose zero_grad() sets grads to None adds a new buffer, so the cache grows with each call
# hint: grow|leak|memory|cache|buffer|each call
import torch
import torch.distributed as dist

_buffers = {}  # reused flat buffers, one per set of gradient tensors


@torch.no_grad()
def average_gradients(model):
    """One all-reduce per call into a reusable flat buffer."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    key = tuple(id(g) for g in grads)
    flat = _buffers.get(key)
    if flat is None:
        flat = torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype, device=grads[0].device)
        _buffers[key] = flat
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
