# expect: pass Launches every all-reduce asynchronously, waits on all the handles, then divides with torch._foreach_div_.
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
    if grads:
        torch._foreach_div_(grads, float(dist.get_world_size()))
