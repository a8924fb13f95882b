# expect: pass functional style: launches with map, waits on each handle's future (handle.get_future().wait()), divides in a consumed map over the grads
# hint: 
from collections import deque

import torch.distributed as dist


def _launch(g):
    return dist.all_reduce(g, async_op=True)


def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    handles = list(map(_launch, grads))
    deque((h.get_future().wait() for h in handles), maxlen=0)
    n = dist.get_world_size()
    deque(map(lambda g: g.div_(n), grads), maxlen=0)


answer = average_gradients
