# expect: fail caches on the first call which parameters have a gradient, so a layer that only gets gradients in a later step is never averaged
# hint: cache|cached|first call|every call|stale|none|later step|new layer|unused|skipp|not averaged|missing
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
        p.grad /= world


answer = average_gradients
