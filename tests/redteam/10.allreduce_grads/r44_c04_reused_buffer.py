# expect: pass keeps one flat buffer between calls, replaced only when the gradients no longer fit it or change dtype (nothing grows per call); packs with copy_ into slices, one all-reduce, unpacks with copy_.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist

_buffer = {"flat": None}  # one reusable buffer: the only state kept between calls


def _buffer_for(numel, dtype, device):
    flat = _buffer["flat"]
    if flat is None or flat.numel() < numel or flat.dtype != dtype or flat.device != device:
        flat = torch.empty(numel, dtype=dtype, device=device)
        _buffer["flat"] = flat  # replaces the old one
    return flat[:numel]


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]  # looked up in every call
    if not grads:
        return
    dtypes = {(g.dtype, g.device) for g in grads}
    if len(dtypes) > 1:  # mixed dtypes: per tensor, each in its own dtype
        for g in grads:
            dist.all_reduce(g)
            g.div_(dist.get_world_size())
        return
    total = sum(g.numel() for g in grads)
    flat = _buffer_for(total, grads[0].dtype, grads[0].device)
    offset = 0
    for g in grads:
        flat[offset : offset + g.numel()].copy_(g.reshape(-1))
        offset += g.numel()
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
