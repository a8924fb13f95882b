# expect: fail It reads the number of ranks from the WORLD_SIZE environment variable (default 2) instead of dist.get_world_size(), so processes started without torchrun divide by 2 on three ranks.
# hint: world.?size|get_world_size|number of ranks|three ranks|3 ranks
# name: average_gradients
import os

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = int(os.environ.get("WORLD_SIZE", "2"))
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad.div_(world)
