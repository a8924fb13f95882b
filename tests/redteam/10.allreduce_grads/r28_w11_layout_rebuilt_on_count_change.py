# expect: fail caches which parameters have a gradient and rebuilds that list only when their NUMBER changes: when one layer drops out and another comes in (or a new model has the same count), it reduces the old list, missing the new layer's gradient (or crashing on a None).
# hint: (cache|cached|stale|count|number of|changed|which param|every call|each call|look at p\.grad|new layer|set of)
# open: in every case the number of parameters that have a gradient changes whenever the parameters do (4, then 6, then the second model's 5): only one layer out and another in at one step, keeping their number, tells it apart
# name: average_gradients
import torch
import torch.distributed as dist

_layout = {"count": -1, "params": [], "flat": None}  # one flat buffer, reused between steps


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    params = list(model.parameters())
    count = sum(p.grad is not None for p in params)
    if count != _layout["count"]:  # the used layers changed: plan the flat buffer again
        used = [p for p in params if p.grad is not None]
        _layout["count"], _layout["params"] = count, used
        _layout["flat"] = (
            torch.empty(sum(p.numel() for p in used), dtype=used[0].grad.dtype) if used else None
        )
    used, flat = _layout["params"], _layout["flat"]
    if not used:
        return
    torch.cat([p.grad.reshape(-1) for p in used], out=flat)
    dist.all_reduce(flat)
    flat.div_(dist.get_world_size())
    for p, part in zip(used, flat.split([p.numel() for p in used])):
        p.grad.copy_(part.view_as(p.grad))
