# expect: fail list of parameters cached in a default argument, stale for another model
# hint: default.?arg|mutable default|cache|stale|another model|new model|_params|between calls
import torch.distributed as dist


def answer(model, _grads=[]):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if not _grads:  # walk the model once, not on every step
        _grads.extend(p for p in model.parameters() if p.grad is not None)
    world = dist.get_world_size()
    for p in _grads:
        dist.all_reduce(p.grad)
        p.grad.div_(world)
