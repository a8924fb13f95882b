# expect: fail keeps every call's flat buffer in a module-level list: memory grows with each call
# hint: grow|leak|memory|kept|each call|every call|accumulat
import torch
import torch.distributed as dist

_sent = []  # what each step sent, to look at later


def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    _sent.append(flat)
    offset = 0
    for g in grads:
        g.copy_(flat[offset : offset + g.numel()].view_as(g))
        offset += g.numel()
