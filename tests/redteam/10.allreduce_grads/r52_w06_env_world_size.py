# expect: fail reads the world size from the WORLD_SIZE environment variable (default 2), not the process group
# hint: world.?size|WORLD_SIZE|environ|number of ranks|/ ?2|three ranks|3 ranks
import os

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = int(os.environ.get("WORLD_SIZE", "2"))  # torchrun sets it
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad /= n


answer = average_gradients
