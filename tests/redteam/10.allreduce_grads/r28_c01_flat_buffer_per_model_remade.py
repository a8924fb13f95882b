# expect: pass keeps one flat buffer per model in a WeakKeyDictionary, made again (replacing the old one) when the gradients it must hold change, and reused otherwise
# hint:
# name: average_gradients
import weakref

import torch
import torch.distributed as dist

_BUFFERS = weakref.WeakKeyDictionary()  # model -> (the gradients' shapes, its flat buffer)


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    shapes = tuple((g.shape, g.dtype) for g in grads)
    kept = _BUFFERS.get(model)
    if kept is None or kept[0] != shapes:
        kept = (shapes, torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype))
        _BUFFERS[model] = kept
    flat = kept[1]
    torch.cat([g.reshape(-1) for g in grads], out=flat)
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
