# expect: fail skips gradients that are all zero on this rank, so ranks can call different collectives and those stay unaveraged
# hint: zero|same collectives|skip|order|mismatch|hang
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None or not p.grad.any():  # nothing to add: save a collective
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(n)


answer = average_gradients
