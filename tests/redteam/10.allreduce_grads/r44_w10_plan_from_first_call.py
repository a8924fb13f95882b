# expect: fail plans the flat buffer and the list of parameters with gradients on the first call only and reuses them: a layer that gets gradients only at a later step (the checker's third) is never averaged, and a grad set to None later would crash it.
# hint: every call|None|first|plan|cache|later step|look at p\.grad
# name: average_gradients
import torch
import torch.distributed as dist

_plan = {}


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    key = id(model)
    if key not in _plan:
        params = [p for p in model.parameters() if p.grad is not None]
        flat = torch.empty(sum(p.numel() for p in params), dtype=params[0].dtype)
        _plan.clear()
        _plan[key] = (params, flat)
    params, flat = _plan[key]
    offset = 0
    for p in params:
        flat[offset : offset + p.numel()].copy_(p.grad.reshape(-1))
        offset += p.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        p.grad.copy_(flat[offset : offset + p.numel()].view_as(p.grad))
        offset += p.numel()
