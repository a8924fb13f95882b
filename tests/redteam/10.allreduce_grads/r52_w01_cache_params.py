# expect: fail caches the parameters that had gradients at the first call; later calls skip new ones
# hint: none|every call|each call|cache|new grad|unused|skipp|not averaged
import torch
import torch.distributed as dist

_with_grad = []  # filled once: the parameters that have a gradient


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if not _with_grad:
        _with_grad.extend(p for p in model.parameters() if p.grad is not None)
    n = dist.get_world_size()
    for p in _with_grad:
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(n)


answer = average_gradients
