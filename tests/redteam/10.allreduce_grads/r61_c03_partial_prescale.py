# expect: pass functools.partial over a generic helper that divides each gradient by the world size first, then sums the pre-scaled gradients with all_reduce
# hint:
import functools

import torch
import torch.distributed as dist


def _reduce_gradients(model, op, average):
    for p in model.parameters():
        if p.grad is None:
            continue
        if average:
            p.grad.div_(dist.get_world_size())  # sum of g / n is the average
        dist.all_reduce(p.grad, op=op)


average_gradients = functools.partial(_reduce_gradients, op=dist.ReduceOp.SUM, average=True)

answer = average_gradients
