# expect: pass functools.partial of a generic reduce-and-scale helper
# hint: 
import functools

import torch
import torch.distributed as dist


@torch.no_grad()
def _reduce_grads(model, op, mean):
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad, op=op)
            if mean:
                p.grad.div_(dist.get_world_size())


answer = functools.partial(_reduce_grads, op=dist.ReduceOp.SUM, mean=True)
