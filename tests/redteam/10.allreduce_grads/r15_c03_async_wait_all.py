# expect: pass launches every all-reduce with async_op=True, waits on every handle, then divides; prints a summary
# hint: 
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for h in handles:
        h.wait()
    world = dist.get_world_size()
    torch._foreach_div_(grads, world) if grads else None
    if dist.get_rank() == 0:
        print(f"averaged {len(grads)} gradients over {world} ranks")


answer = average_gradients
