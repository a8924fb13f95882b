# expect: pass one recursion level per worker (judged right: the prompt sets no size, and a recursion deep enough to fail needs about a thousand workers on one machine; r29_c14 recurses too)
# hint: 
import torch

import d2lgpu


def _place(n_workers, devices):
    if n_workers == 0:
        return []
    return _place(n_workers - 1, devices) + [devices[(n_workers - 1) % len(devices)]]


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return _place(n_workers, d2lgpu.try_all_gpus())


answer = place_workers
