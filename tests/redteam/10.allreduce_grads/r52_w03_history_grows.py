# expect: fail keeps every call's flat buffer in a list, so memory grows with each step
# hint: grow|leak|memory|each call|every call|buffer|history
import torch
import torch.distributed as dist

_buffers = []  # "a buffer for the next call": one per call, kept


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    _buffers.append(flat)
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()


answer = average_gradients
