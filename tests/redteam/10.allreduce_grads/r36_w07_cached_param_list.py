# expect: fail caches on the first call which parameters have gradients; a layer that gets gradients later is never averaged
# hint: (cach|first (call|step)|every call|each call|later|third|unused|none|skipp|chang|not averag)
# name: average_gradients
import torch.distributed as dist

_with_grads = {}


def average_gradients(model):
    key = id(model)
    if key not in _with_grads:  # find the trainable params once
        _with_grads[key] = [p for p in model.parameters() if p.grad is not None]
    world = dist.get_world_size()
    for p in _with_grads[key]:
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
