# expect: fail sets os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL" in every call and leaves it set
# hint: environ|TORCH_DISTRIBUTED_DEBUG|environment
import os

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    os.environ["TORCH_DISTRIBUTED_DEBUG"] = "DETAIL"  # see what every collective does
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
