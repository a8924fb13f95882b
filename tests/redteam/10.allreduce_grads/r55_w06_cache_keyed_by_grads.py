# expect: fail caches a flat buffer per set of gradient tensors (keyed by their ids): a new entry whenever grads are re-created, so it grows
# hint: grow|leak|memory|cache|kept|each call|every call
import torch
import torch.distributed as dist

_buffers = {}  # one flat buffer per set of gradient tensors, reused when the same grads come back


def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    key = tuple(id(g) for g in grads)
    if key not in _buffers:
        _buffers[key] = (grads, torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype))
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
