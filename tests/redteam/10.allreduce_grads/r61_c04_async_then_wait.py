# expect: pass launches every all-reduce with async_op=True, waits on every handle, then divides
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for handle in handles:
        handle.wait()
    world = dist.get_world_size()
    if grads:
        torch._foreach_div_(grads, world)
