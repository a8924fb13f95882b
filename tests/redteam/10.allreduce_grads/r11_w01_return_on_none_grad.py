# expect: fail returns from the function at the first parameter whose grad is None (`return` where `continue` was meant), so every gradient after an unused layer is never averaged
# hint: \breturn\b|continue|stops?|early|first None|after (the|an) (unused|None)|\bNone\b.*(skip|rest|later|remaining|following)|remaining|later (param|grad)
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            return
        dist.all_reduce(p.grad)
        p.grad /= world
