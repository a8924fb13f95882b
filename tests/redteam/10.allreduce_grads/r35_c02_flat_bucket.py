# expect: pass one flat bucket per dtype built with torch.cat, one all_reduce each, averages copied back into the same p.grad tensors.
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    by_dtype = {}
    for p in model.parameters():  # model order: the same on every rank
        if p.grad is not None:
            by_dtype.setdefault(p.grad.dtype, []).append(p.grad)
    world = dist.get_world_size()
    for dtype in sorted(by_dtype, key=str):  # same order of collectives on every rank
        grads = by_dtype[dtype]
        flat = torch.cat([g.reshape(-1) for g in grads])
        dist.all_reduce(flat)
        flat.div_(world)
        for g, part in zip(grads, flat.split([g.numel() for g in grads])):
            g.copy_(part.view_as(g))


answer = average_gradients
