# expect: fail the list of parameters with a gradient is found on the first call and reused, so a layer that gets a gradient later is never averaged
# hint: cach|first call|(step|call) to (the next|step|call)|every call|stale|later (step|call)|newly|not averaged|reused
# Wrong: the prompt says which parameters have a gradient can change from one step to the next,
# so p.grad must be looked at in every call; here a layer first used at step 3 keeps its local gradient.
import torch
import torch.distributed as dist

_with_grad = {}  # id(model) -> the parameters that have gradients (one entry per model)


@torch.no_grad()
def answer(model):
    params = _with_grad.get(id(model))
    if params is None:
        params = [p for p in model.parameters() if p.grad is not None]
        _with_grad[id(model)] = params
    world = dist.get_world_size()
    for p in params:
        if p.grad is None:  # gone since: nothing to average
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
