# expect: fail packs every gradient into one flat buffer made by torch.zeros(n), which is float32 whatever the gradients' dtype, so float64 gradients are rounded
# hint: dtype|float32|float64|double|precision|round|flat|buffer|zeros
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.zeros(sum(g.numel() for g in grads))  # one all-reduce for all of them
    offset = 0
    for g in grads:
        flat[offset : offset + g.numel()] = g.reshape(-1)
        offset += g.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()


answer = average_gradients
