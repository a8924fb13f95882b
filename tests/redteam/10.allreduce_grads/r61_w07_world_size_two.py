# expect: fail divides by 2, the world size of the example, written in instead of dist.get_world_size()
# hint: world.?size|get_world_size|/ ?2|hard.?cod|written in|number of ranks|three ranks|3 ranks
import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= 2  # two ranks


answer = average_gradients
