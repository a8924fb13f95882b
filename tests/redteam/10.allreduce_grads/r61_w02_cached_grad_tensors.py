# expect: fail keeps references to the p.grad tensors of the first call and reduces those, so after grads are set to None and recreated the new tensors are never averaged
# hint: stale|cache|cached|reference|new tensor|set_to_none|none|every call|old grad|first call|not averaged
import torch
import torch.distributed as dist


class _State:
    grads = None


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if _State.grads is None:  # collect the gradient tensors once; reuse them at every step
        _State.grads = [p.grad for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for g in _State.grads:
        dist.all_reduce(g)
        g /= world


answer = average_gradients
