# expect: pass one flat all-reduce per dtype (grouped with itertools.groupby after a stable sort on the dtype's name), pre-divided, split back with copy_ into the existing grads
# hint: 
import itertools

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    by_dtype = sorted(grads, key=lambda g: str(g.dtype))  # stable: the same order on every rank
    for _, group in itertools.groupby(by_dtype, key=lambda g: str(g.dtype)):
        group = list(group)
        flat = torch.cat([g.reshape(-1) for g in group]).div_(world)
        dist.all_reduce(flat)
        for g, chunk in zip(group, flat.split([g.numel() for g in group])):
            g.copy_(chunk.view_as(g))


answer = average_gradients
