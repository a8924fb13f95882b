# expect: fail It packs the gradients into a buffer made by torch.zeros(n), which is float32 whatever the model's dtype, so float64 (or bfloat16 mixed with float32) gradients are rounded or converted on the way.
# hint: dtype|float32|float64|zeros|round|precision
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    total = sum(g.numel() for g in grads)
    flat = torch.zeros(total)  # one all-reduce for everything
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
