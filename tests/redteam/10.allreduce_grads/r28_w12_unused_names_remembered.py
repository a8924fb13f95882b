# expect: fail remembers the names of parameters that once had no gradient and skips them in every later call: a layer unused in the first steps but used later (the third step) keeps its local, un-averaged gradient.
# hint: (remember|once|sticky|stale|later step|previous|first call|change|every call|each call|look at p\.grad|skip)
# name: average_gradients
import torch
import torch.distributed as dist

_unused = set()  # names of parameters that forward does not use; bounded by the model


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for name, p in model.named_parameters():
        if name in _unused:
            continue
        if p.grad is None:
            _unused.add(name)  # an unused layer: no need to look at it again
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
