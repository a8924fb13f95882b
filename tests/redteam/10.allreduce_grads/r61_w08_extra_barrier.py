# expect: fail adds a dist.barrier() after the all-reduces "to be safe": an extra collective and sync every step
# hint: barrier|extra|collective|sync|synchroni|only all_reduce|unexpected|other collective
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world
    dist.barrier()  # make sure every rank has its averages before the optimizer step


answer = average_gradients
