# expect: fail After the all-reduce it broadcasts every gradient again from rank 0 "so the ranks agree bit for bit", which gives the same values at twice the communication, a collective per gradient more.
# hint: broadcast|extra|collective|twice|once
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
        dist.broadcast(p.grad, src=0)  # make sure every rank holds identical bits
