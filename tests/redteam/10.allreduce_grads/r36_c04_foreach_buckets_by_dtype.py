# expect: pass grads grouped by dtype into flat buckets, torch._foreach_div_ after copying back
# hint:
# name: average_gradients
from collections import OrderedDict

import torch
import torch.distributed as dist


def average_gradients(model):
    groups = OrderedDict()
    for p in model.parameters():
        if p.grad is not None:
            groups.setdefault(p.grad.dtype, []).append(p.grad)
    world = dist.get_world_size()
    for grads in groups.values():
        flat = torch.cat([g.flatten() for g in grads])
        dist.all_reduce(flat)
        for g, part in zip(grads, torch.split(flat, [g.numel() for g in grads])):
            g.copy_(part.view(g.shape))
        torch._foreach_div_(grads, world)
