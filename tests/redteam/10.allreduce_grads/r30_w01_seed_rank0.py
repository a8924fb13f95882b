# expect: fail reseeds torch's global generator on rank 0 only (torch.manual_seed(0) when rank == 0) at every call, so rank 0's random stream restarts each step and no longer matches the other ranks'
# hint: seed|random|rng|generator
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    if dist.get_rank() == 0:
        torch.manual_seed(0)  # rank 0 leads: pin its randomness so the run is reproducible
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= world


answer = average_gradients
