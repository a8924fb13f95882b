# expect: fail wrapped in a decorator that calls torch.manual_seed(seed) before every call, resetting the caller's global random generator each step
# hint: seed|random|rng|generator
import functools

import torch
import torch.distributed as dist


def reproducible(seed=0):
    """Make a function deterministic: seed torch before it runs."""

    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            torch.manual_seed(seed)
            return fn(*args, **kwargs)

        return inner

    return wrap


@reproducible(seed=42)
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
