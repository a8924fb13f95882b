# expect: fail silences all warnings with warnings.filterwarnings("ignore") (gloo warns) and never restores the filters
# hint: warning
import warnings

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    warnings.filterwarnings("ignore")  # gloo and all_reduce warnings clutter the log
    world = dist.get_world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(world)


answer = average_gradients
