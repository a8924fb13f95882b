# expect: fail makes each p.grad a view into a cached flat buffer and, when the same parameters have gradients again, assumes they still are views: after zero_grad() (set_to_none=True) backward makes new grads and the stale buffer is all-reduced instead
# hint: stale|view|buffer|set_to_none|new tensor|zero_grad|cache
import weakref

import torch
import torch.distributed as dist

_plans = weakref.WeakKeyDictionary()  # model -> (parameters with grads, flat buffer)


@torch.no_grad()
def average_gradients(model):
    """gradient_as_bucket_view by hand: p.grad lives in one flat buffer, all-reduced at once."""
    params = [p for p in model.parameters() if p.grad is not None]
    if not params:
        return
    plan = _plans.get(model)
    if plan is None or len(plan[0]) != len(params) or any(a is not b for a, b in zip(plan[0], params)):
        # new layout: copy the gradients into a fresh buffer and make each p.grad a view of it
        flat = torch.cat([p.grad.reshape(-1) for p in params])
        offset = 0
        for p in params:
            p.grad = flat[offset : offset + p.numel()].view_as(p)
            offset += p.numel()
        _plans[model] = (params, flat)
    else:
        flat = plan[1]  # same parameters as last time: their grads already live in flat
    dist.all_reduce(flat)
    flat /= dist.get_world_size()


answer = average_gradients
