# expect: fail one module-level flat buffer, reused for any model of the same size, with every p.grad turned into a view of it: averaging a second model overwrites the first model's gradients
# hint: shared|global|alias|overwrit|clobber|another model|second model|view|buffer
# open: the checker averages one model at a time (the first for 3 steps, then a second of another size); a buffer shared by two models of one size shows only where their steps interleave, which no run of its rank job does
import torch
import torch.distributed as dist

_flat = None  # kept for the next call, as the exercise allows


@torch.no_grad()
def average_gradients(model):
    """Copy into a reusable flat buffer, one all-reduce, and leave each p.grad as a view of it."""
    global _flat
    params = [p for p in model.parameters() if p.grad is not None]
    if not params:
        return
    total = sum(p.numel() for p in params)
    dtype, device = params[0].grad.dtype, params[0].grad.device
    if _flat is None or _flat.numel() != total or _flat.dtype != dtype or _flat.device != device:
        _flat = torch.empty(total, dtype=dtype, device=device)
    offset = 0
    for p in params:
        _flat[offset : offset + p.numel()].copy_(p.grad.reshape(-1))
        offset += p.numel()
    dist.all_reduce(_flat)
    _flat /= dist.get_world_size()
    offset = 0
    for p in params:  # no copy back: the gradient is a view into the buffer (zero-copy)
        p.grad = _flat[offset : offset + p.numel()].view_as(p)
        offset += p.numel()


answer = average_gradients
