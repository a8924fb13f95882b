# expect: fail one flat buffer made by torch.zeros(n), float32 whatever the gradients' dtype: a float64 model's gradients are rounded to float32 (bf16/fp16 ones doubled in bytes)
# hint: float32|dtype|zeros|round|precision|float64
import torch
import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.zeros(sum(g.numel() for g in grads), device=grads[0].device)
    offset = 0
    for g in grads:
        flat[offset : offset + g.numel()] = g.reshape(-1)
        offset += g.numel()
    dist.all_reduce(flat)  # one collective: the fixed cost paid once
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
