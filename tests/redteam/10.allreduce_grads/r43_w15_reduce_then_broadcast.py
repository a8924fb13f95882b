# expect: fail It sums onto rank 0 with dist.reduce, divides there and broadcasts the average back: the same values, but two collectives per gradient instead of the one all_reduce the exercise asks for.
# hint: all_reduce|reduce|broadcast|collective|twice
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.reduce(p.grad, dst=0)
        if dist.get_rank() == 0:
            p.grad.div_(world)
        dist.broadcast(p.grad, src=0)
