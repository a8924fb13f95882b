# expect: fail It keeps the p.grad tensors of the first call and all-reduces those every time, which works while zero_grad(set_to_none=False) reuses them but averages stale tensors once a step hands the parameters new gradients.
# hint: stale|same tensor|new tensor|every call|cach|set_to_none|p\.grad
# name: average_gradients
import torch
import torch.distributed as dist

_grads = {}


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    key = id(model)
    if key not in _grads:
        _grads[key] = [p.grad for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for g in _grads[key]:
        dist.all_reduce(g)
        g.div_(world)
