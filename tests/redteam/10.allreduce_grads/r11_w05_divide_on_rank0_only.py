# expect: fail only rank 0 divides the all-reduced sum by the world size; every other rank is left holding the sum
# hint: rank ?(0|zero)|get_rank|only one rank|other ranks|every rank|all ranks|ranks? (differ|disagree)|\bsum\b|summed, not averaged
# name: average_gradients
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        if dist.get_rank() == 0:
            p.grad /= world
