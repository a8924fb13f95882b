# expect: pass walks named_parameters() sorted by name (the same order on every rank), all-reduces p.grad.detach() (an alias sharing p.grad's memory) under torch.no_grad, divides in place.
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for _name, p in sorted(model.named_parameters(), key=lambda item: item[0]):
        if p.grad is None:
            continue
        g = p.grad.detach()  # same storage as p.grad: no copy
        dist.all_reduce(g)
        g /= world
