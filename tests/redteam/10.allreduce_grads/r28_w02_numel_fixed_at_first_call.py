# expect: fail sizes its flat buffer once, from the gradients of the first call, and keeps it in a global: when a layer that had no gradient gets one, the buffer is too small and the copy into it raises
# hint: (first (call|step)|size|kept|cach|fits?)\w*.{0,80}(buffer|gradient|p\.grad)|buffer.{0,60}(first call|sized|fit)
# name: average_gradients
import torch
import torch.distributed as dist

_FLAT = []  # the flat buffer, made at the first call


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not _FLAT:
        _FLAT.append(torch.zeros(sum(g.numel() for g in grads), dtype=grads[0].dtype))
    flat = _FLAT[0]
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
