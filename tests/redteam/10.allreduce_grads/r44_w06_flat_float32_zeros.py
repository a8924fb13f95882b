# expect: fail packs the gradients into one flat buffer made by torch.zeros(total), which is float32 whatever the model's dtype: float64 gradients are rounded to float32 on the way through (and a float16 model sends twice its bytes), so the average is not in the gradients' own dtype.
# hint: float32|dtype|zeros|round|buffer|float64
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = sum(g.numel() for g in grads)
    flat = torch.zeros(total)  # default dtype: float32
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
