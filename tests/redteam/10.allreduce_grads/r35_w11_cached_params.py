# expect: fail caches the list of parameters that had a gradient on the first call, so a layer that gets gradients only in a later step is never averaged.
# hint: none|every call|each call|later|unused|layer|cache|third
# name: average_gradients
import torch.distributed as dist

_with_grad = {}


def average_gradients(model):
    key = id(model)
    if key not in _with_grad:  # find the trainable parameters once
        _with_grad[key] = [p for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for p in _with_grad[key]:
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
