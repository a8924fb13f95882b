# expect: fail flattens the gradients into one buffer, all-reduces and divides it, but never copies it back into p.grad
# hint: copy|back|flat|p\.grad|unchanged|in place|sum|average|differ
import os
import sys
import functools
import torch
import torch.distributed as dist


def answer(model):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    flat = torch.cat([g.reshape(-1) for g in grads])
    dist.all_reduce(flat)
    flat /= dist.get_world_size()
    # views of flat are the gradients now
    grads = list(flat.split([g.numel() for g in grads]))
