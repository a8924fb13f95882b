# expect: fail flat buffer of the non-None grads, but the copy-back offset also advances over parameters without a gradient
# hint: None|offset|without|no grad|average|differ|match|shape|size
import torch
import torch.distributed as dist


def answer(model):
    params = list(model.parameters())
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    offset = 0
    for p in params:
        if p.grad is not None:
            p.grad.copy_(flat[offset : offset + p.numel()].view_as(p.grad))
        offset += p.numel()
