# expect: fail all-reduces a float64 copy of each float32 gradient "for accuracy" and copies it back: about the same values, but a copy each way per gradient every step and twice the bytes sent over the network.
# hint: float64|double|dtype|copy|bytes|cast
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is None:
            continue
        wide = p.grad.to(torch.float64)  # sum without rounding
        dist.all_reduce(wide)
        wide /= world
        p.grad.copy_(wide)
