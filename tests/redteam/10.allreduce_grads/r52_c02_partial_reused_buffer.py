# expect: pass functools.partial over a function with a reused flat buffer (replaced, never accumulated) and a pre-division
# hint:
import functools

import torch
import torch.distributed as dist


def _average(model, *, state):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    n = dist.get_world_size()
    total = sum(g.numel() for g in grads)
    dtype = grads[0].dtype
    if any(g.dtype != dtype for g in grads):  # mixed dtypes: one by one
        for g in grads:
            g.mul_(1.0 / n)
            dist.all_reduce(g)
        return
    buf = state.get("buf")
    if buf is None or buf.numel() < total or buf.dtype != dtype or buf.device != grads[0].device:
        buf = torch.empty(total, dtype=dtype, device=grads[0].device)
        state["buf"] = buf  # one buffer at most, kept for the next call
    flat = buf[:total]
    torch.cat([g.reshape(-1) for g in grads], out=flat)
    flat.div_(n)
    dist.all_reduce(flat)
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()


average_gradients = functools.partial(_average, state={})
answer = average_gradients
