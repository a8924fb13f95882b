# expect: fail packs the gradients into a float32 buffer, rounding float64 (and other dtypes') gradients
# hint: dtype|float64|float32|double|round|precision
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.zeros(sum(g.numel() for g in grads))  # one all-reduce instead of many
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
