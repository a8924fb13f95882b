# expect: fail caches, per model, the list of parameters that had a gradient at the first call (lru_cache): a parameter whose layer starts being used later is never averaged, and one whose grad becomes None crashes; the cache also keeps every model alive
# hint: (cach|lru_cache|memo|first call|stale|remember)\w*.{0,60}(param|grad|list|model)|(param|grad|list).{0,60}(cach|first call|stale)|later (call|step)|keeps? .{0,20}(model|alive)
# name: average_gradients
from functools import lru_cache

import torch
import torch.distributed as dist


@lru_cache(maxsize=None)
def _params_with_grad(model):
    # which parameters get a gradient is fixed by the model: work it out once
    return tuple(p for p in model.parameters() if p.grad is not None)


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in _params_with_grad(model):
        dist.all_reduce(p.grad)
        p.grad.div_(world)
