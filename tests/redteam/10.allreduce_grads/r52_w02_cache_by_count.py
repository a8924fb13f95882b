# expect: fail caches the list of gradient-bearing parameters, rebuilt only when their number changes
# hint: none|every call|each call|cache|stale|changed|not averaged
# open: as r48_w13: the parameters that have a gradient change once, at step 2, in number; a layer used in place of another of the same count is no case of the rank job
import torch
import torch.distributed as dist

_plan = {"count": None, "params": []}


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    count = sum(p.grad is not None for p in model.parameters())
    if count != _plan["count"]:  # the set of grads changed: rebuild the list
        _plan["count"] = count
        _plan["params"] = [p for p in model.parameters() if p.grad is not None]
    n = dist.get_world_size()
    for p in _plan["params"]:
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= n


answer = average_gradients
