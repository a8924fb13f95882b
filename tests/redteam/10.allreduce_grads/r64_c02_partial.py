# expect: pass
# hint:
# Right: a general "reduce every gradient" function bound with functools.partial to a sum and a
# scale of 1 / world size, read in each call; all-reduce works on a contiguous copy when needed.
import functools

import torch
import torch.distributed as dist


@torch.no_grad()
def _reduce_grads(model, op, scale_by_world):
    for p in model.parameters():
        g = p.grad
        if g is None:
            continue
        t = g if g.is_contiguous() else g.contiguous()
        dist.all_reduce(t, op=op)
        if scale_by_world:
            t.div_(dist.get_world_size())
        if t is not g:
            g.copy_(t)


answer = functools.partial(_reduce_grads, op=dist.ReduceOp.SUM, scale_by_world=True)
