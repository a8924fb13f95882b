# expect: pass divide first (as DDP's buckets do), launch all-reduces async via functools.partial, wait on every handle
# hint:
import functools

import torch.distributed as dist

_launch = functools.partial(dist.all_reduce, op=dist.ReduceOp.SUM, async_op=True)


def answer(model):
    world = dist.get_world_size()
    handles = []
    for p in model.parameters():
        if p.grad is not None:
            p.grad.mul_(1.0 / world)
            handles.append(_launch(p.grad))
    for handle in handles:
        handle.wait()
