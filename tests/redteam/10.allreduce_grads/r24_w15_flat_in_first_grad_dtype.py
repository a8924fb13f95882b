# expect: fail one flat buffer in the dtype of the first gradient: with mixed dtypes (a bfloat16 or float16 layer first, float32 after) every other gradient is rounded to that dtype before it is summed
# hint: dtype|round|precision|mixed|bfloat16|float16|half
# open: every case's model has one dtype (float32, then float64): only gradients of mixed dtypes tell it apart
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.empty(sum(g.numel() for g in grads), dtype=grads[0].dtype)  # the model's dtype
    offset = 0
    for g in grads:
        flat[offset:offset + g.numel()].copy_(g.reshape(-1))
        offset += g.numel()
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for g in grads:
        g.copy_(flat[offset:offset + g.numel()].view_as(g))
        offset += g.numel()


answer = average_gradients
