# expect: fail does the all-reduces in a background thread "so that the caller is not blocked" and returns without joining it: the caller (and optimizer.step) can read p.grad before the averages are written
# hint: thread|join|wait|return|before|async|background|race|finish
import threading

import torch.distributed as dist


def _average(grads, world):
    for g in grads:
        dist.all_reduce(g)
        g /= world


def answer(model):
    """Replace every p.grad of model by its average over all ranks (skipping grads that are None)."""
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    # communicate in the background while the caller goes on
    threading.Thread(target=_average, args=(grads, dist.get_world_size()), daemon=True).start()
