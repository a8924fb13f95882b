# expect: fail monkeypatches torch.Tensor.div_ at module level (import time) with a "faster" multiply and leaves it patched
# hint: patch|div_|replac|torch\.Tensor
import torch
import torch.distributed as dist

_div_ = torch.Tensor.div_


def _fast_div_(self, other, *args, **kwargs):
    if isinstance(other, (int, float)) and not args and not kwargs:
        return self.mul_(1.0 / other)  # a multiply is cheaper than a divide
    return _div_(self, other, *args, **kwargs)


torch.Tensor.div_ = _fast_div_


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
