# expect: fail caches the list of parameters with gradients and refreshes it only when their number changes: when one layer is used instead of another of the same count, the new one's gradient is left local
# hint: cache|stale|every call|each call|changed|which param|look at p\.grad
# open: the parameters that have a gradient change once, at step 2, in number; a layer used in place of another of the same count (the set changing, its size not) is no case of the rank job
import weakref

import torch
import torch.distributed as dist

_with_grad = weakref.WeakKeyDictionary()  # model -> parameters that had a gradient


@torch.no_grad()
def average_gradients(model):
    """Average the gradients, re-scanning model.parameters() only when the set of gradients changed size."""
    count = sum(p.grad is not None for p in model.parameters())
    params = _with_grad.get(model)
    if params is None or len(params) != count:
        params = [p for p in model.parameters() if p.grad is not None]
        _with_grad[model] = params
    world = dist.get_world_size()
    for p in params:
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
