# expect: fail launches async all-reduces and never waits for them: p.grad may not hold the sum yet
# hint: wait|sync|async|not (yet )?(done|finished|complete)
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        p.grad.div_(n)  # divide first: the sum of the shares is the average
        dist.all_reduce(p.grad, async_op=True)  # all of them in flight at once


answer = average_gradients
