# expect: fail world size read from the WORLD_SIZE environment variable, defaulting to 2
# hint: world.?size|get_world_size|environ|WORLD_SIZE|number of ranks|three ranks|3 ranks
import os

import torch.distributed as dist


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    world = int(os.environ.get("WORLD_SIZE", 2))  # torchrun sets it
    for p in model.parameters():
        if p.grad is None:
            continue
        dist.all_reduce(p.grad)
        p.grad /= world
