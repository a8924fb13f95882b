# expect: pass launches every all-reduce with async_op=True in parameter order, waits on all the handles, then divides each gradient in place with torch.div(..., out=g).
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, op=dist.ReduceOp.SUM, async_op=True) for g in grads]
    for handle in handles:
        handle.wait()
    world = dist.get_world_size()
    for g in grads:
        torch.div(g, world, out=g)
