# expect: pass (judged right: a process group keeps its size for the life of a training process; re-running ranks of another size in one process is outside the prompt; written as: caches dist.get_world_size() in an lru_cache for the life of the process: once a process group is destroyed and another of a different size is started in the same process (a notebook re-running 2 then 3 ranks), every later call divides by the old world size)
# hint: 
# name: average_gradients
from functools import lru_cache

import torch
import torch.distributed as dist


@lru_cache(maxsize=None)
def _world_size():
    # a call into c10d every step is wasted work: the world does not change during training
    return dist.get_world_size()


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    n = _world_size()
    for p in model.parameters():
        if p.grad is not None:
            dist.all_reduce(p.grad)
            p.grad.div_(n)
