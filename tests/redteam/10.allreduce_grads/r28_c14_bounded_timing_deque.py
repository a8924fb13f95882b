# expect: pass
# hint:
# name: average_gradients
import time
from collections import deque

import torch
import torch.distributed as dist

RECENT_SECONDS = deque(maxlen=100)  # the last 100 steps' communication time; never longer


@torch.no_grad()
def average_gradients(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    t0 = time.perf_counter()
    world = dist.get_world_size()
    pending = []
    for p in reversed(list(model.parameters())):  # the same reversed order on every rank
        if p.grad is not None:
            pending.append((p.grad, dist.all_reduce(p.grad, async_op=True)))
    for g, work in pending:
        work.wait()
        g.div_(world)
    RECENT_SECONDS.append(time.perf_counter() - t0)
