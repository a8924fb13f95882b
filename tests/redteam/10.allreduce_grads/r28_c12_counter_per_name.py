# expect: pass
# hint:
# name: average_gradients
from collections import Counter

import torch
import torch.distributed as dist

steps_with_grad = Counter()  # name -> steps it had a gradient: one key per parameter, never more


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    inv = 1.0 / dist.get_world_size()
    for name, p in model.named_parameters():
        if p.grad is None:  # unused in this step's forward; may be used in the next
            continue
        p.grad.mul_(inv)  # scale first: the sum over the ranks is then the average
        dist.all_reduce(p.grad, op=dist.ReduceOp.SUM)
        steps_with_grad[name] += 1
