# expect: fail keeps one flat buffer between calls and adds the gradients into it without zeroing: later steps carry earlier ones
# hint: state|between calls|zero|reset|accumulat|buffer|stale|later steps?|second step|steps? [23]|previous
import torch
import torch.distributed as dist

_buffers = {}  # allocated once per model, reused every step


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    numel = sum(g.numel() for g in grads)
    flat = _buffers.get(id(model))
    if flat is None or flat.numel() != numel:
        flat = _buffers[id(model)] = torch.zeros(numel, dtype=grads[0].dtype)
    offset = 0
    for g in grads:
        flat[offset:offset + g.numel()].add_(g.reshape(-1))
        offset += g.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()


answer = average_gradients
