# expect: fail walks the model for the parameters that have a gradient only every 50th call, to save Python overhead: in between it reduces the list of the last refresh, missing a layer that starts to get gradients (the third step) and crashing on one whose grad became None.
# hint: (every \d+|refresh|periodic|stale|cache|cached|every call|each call|look at p\.grad|change|which param)
# name: average_gradients
import torch
import torch.distributed as dist

_state = {"calls": 0, "with_grad": []}
REFRESH = 50  # walking a big model every step costs Python time


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if _state["calls"] % REFRESH == 0:
        _state["with_grad"] = [p for p in model.parameters() if p.grad is not None]
    _state["calls"] += 1
    grads = [p.grad for p in _state["with_grad"]]
    handles = [dist.all_reduce(g, async_op=True) for g in grads]
    for h in handles:
        h.wait()
    if grads:
        torch._foreach_div_(grads, dist.get_world_size())
