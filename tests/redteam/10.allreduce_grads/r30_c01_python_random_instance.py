# expect: pass
# hint:
import random

import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    # spread the order of the all-reduces; a private Random(0) gives every rank the same order,
    # and neither python's nor torch's global generator is touched
    random.Random(0).shuffle(grads)
    world = dist.get_world_size()
    for g in grads:
        dist.all_reduce(g)
        g /= world


answer = average_gradients
