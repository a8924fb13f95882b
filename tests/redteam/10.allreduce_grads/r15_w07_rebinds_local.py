# expect: fail divides into a new tensor bound to a local name (g = g / n), so p.grad keeps the sum, n times the average
# hint: sum|in.?place|rebind|new tensor|local (name|variable)|not (written|stored|assigned)|times the average|too (big|large)
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        g = p.grad
        if g is None:
            continue
        dist.all_reduce(g)  # in place: p.grad now holds the sum
        g = g / world  # the average


answer = average_gradients
