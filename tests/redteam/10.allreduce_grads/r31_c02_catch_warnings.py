# expect: pass
# hint:
import warnings

import torch
import torch.distributed as dist


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    threads = torch.get_num_threads()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # only inside this block
        try:
            torch.set_num_threads(1)
            world = dist.get_world_size()
            for p in model.parameters():
                if p.grad is not None:
                    dist.all_reduce(p.grad)
                    p.grad.div_(world)
        finally:
            torch.set_num_threads(threads)


answer = average_gradients
