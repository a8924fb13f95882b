# expect: pass functools.partial over a helper that keeps one flat buffer per model (weak keys, replaced when the layout changes, so bounded), gradients read from p.grad on every call and copied in and out
# hint:
import functools
import weakref

import torch
import torch.distributed as dist


def _average(model, buffers, world_size=None):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    world = world_size if world_size is not None else dist.get_world_size()
    layout = tuple((g.numel(), g.dtype, g.device) for g in grads)
    kept = buffers.get(model)
    if kept is None or kept[0] != layout:
        dtype = functools.reduce(torch.promote_types, (g.dtype for g in grads))
        kept = (layout, torch.empty(sum(g.numel() for g in grads), dtype=dtype, device=grads[0].device))
        buffers[model] = kept  # replaces the previous one: at most one buffer per model
    flat = kept[1]
    with torch.no_grad():
        sizes = [g.numel() for g in grads]
        for g, part in zip(grads, flat.split(sizes)):
            part.copy_(g.reshape(-1))
        dist.all_reduce(flat)
        flat.div_(world)
        for g, part in zip(grads, flat.split(sizes)):
            g.copy_(part.view(g.shape))


average_gradients = functools.partial(_average, buffers=weakref.WeakKeyDictionary())

answer = average_gradients
