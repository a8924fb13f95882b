# expect: fail packs the gradients into a flat buffer made by torch.zeros(n), float32, so float64 (or other dtype) gradients are rounded
# hint: dtype|float64|double|float32|precision|round|default dtype
# Wrong: torch.zeros(total) takes the default dtype, float32; a float64 model's gradients go
# through it and come back rounded to float32 (errors near 1e-7 where the sum in float64 has none).
import torch
import torch.distributed as dist


@torch.no_grad()
def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.zeros(sum(g.numel() for g in grads))  # one all-reduce for everything
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
