# expect: pass one flat buffer (torch.cat) per call, a single all-reduce, split back with copy_
# hint:
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if not grads:
        return
    world = dist.get_world_size()
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat.div_(world)
    offset = 0
    for g in grads:
        n = g.numel()
        g.copy_(flat[offset:offset + n].view_as(g))
        offset += n
