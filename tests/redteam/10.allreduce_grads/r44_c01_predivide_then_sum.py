# expect: pass divides each gradient in place by the world size first and then all-reduces it in place (DDP's order), through a flat view p.grad.view(-1).
# hint: 
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        flat = p.grad.view(-1)  # a view: the in-place ops below change p.grad itself
        flat.div_(world)
        dist.all_reduce(flat)
