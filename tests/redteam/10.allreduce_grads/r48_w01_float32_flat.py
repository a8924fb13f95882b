# expect: fail flattens every gradient into one float32 buffer: float64 gradients come back rounded to float32
# hint: dtype|float64|float32|precision|round
import torch
import torch.distributed as dist


def average_gradients(model):
    """One all-reduce for the whole model: flatten, sum, divide, copy back."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    # .float() so that one buffer holds every gradient, whatever mix of dtypes the model has
    flat = torch.cat([g.float().reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        n = g.numel()
        g.copy_(flat[offset : offset + n].view_as(g))
        offset += n


answer = average_gradients
