# expect: fail caches the list of grad tensors at the first call; after zero_grad (set to None) later steps reduce stale tensors
# hint: cache|stale|state|between calls|first (call|step)|later steps?|second step|steps? [23]|zero_grad|new tensors?
import torch
import torch.distributed as dist


class _Averager:
    def __init__(self):
        self._grads = {}  # model -> the grads to reduce, found once

    def __call__(self, model):
        grads = self._grads.get(id(model))
        if grads is None:
            grads = [p.grad for p in model.parameters() if p.grad is not None]
            self._grads[id(model)] = grads
        world = dist.get_world_size()
        for g in grads:
            dist.all_reduce(g)
            g /= world


average_gradients = _Averager()
answer = average_gradients
