# expect: pass list comprehension, worker i on devices[i % len(devices)]
# hint:
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()  # asked at every call
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
