# expect: pass names imported from torch.distributed; async all-reduces joined with torch.futures.collect_all(...).wait(); one torch._foreach_div_ for the division
# hint: 
import torch
from torch.distributed import all_reduce, get_world_size
from torch.futures import collect_all


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    works = [all_reduce(g, async_op=True) for g in grads]
    collect_all([w.get_future() for w in works]).wait()
    torch._foreach_div_(grads, get_world_size())


answer = average_gradients
