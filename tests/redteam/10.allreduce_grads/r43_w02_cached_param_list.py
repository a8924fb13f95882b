# expect: fail It decides once, on the first call, which parameters have a gradient and reuses that list, so a layer that gets its first gradient in a later step is never averaged.
# hint: none|every call|later step|third step|cach|unused|layer
# name: average_gradients
import torch
import torch.distributed as dist

_with_grad = {}


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    key = id(model)
    if key not in _with_grad:  # work out once which parameters take part
        _with_grad[key] = [p for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for p in _with_grad[key]:
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
