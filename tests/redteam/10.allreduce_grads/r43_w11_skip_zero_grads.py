# expect: fail It skips gradients that are all zeros on this rank to save traffic, but another rank's copy may be nonzero, so the ranks call different numbers of collectives and the sums pair up wrong or hang.
# hint: same collectives|order|zero|skip|every rank|hang
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to add: save the traffic
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
