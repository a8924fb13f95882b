# expect: fail It divides by a world size written in, 2, so the gradients are 3/2 of the average on three ranks.
# hint: world.?size|get_world_size|/ ?2|three|3 ranks
# name: average_gradients
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.mul_(0.5)
