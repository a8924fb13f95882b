# expect: pass async all-reduces, all waited on, then torch._foreach_div_
# hint: 
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for handle in handles:
        handle.wait()
    if grads:
        torch._foreach_div_(grads, dist.get_world_size())
