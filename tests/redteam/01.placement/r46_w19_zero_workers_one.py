# expect: fail zero workers still get one device (max(1, n_workers))
# hint: zero|0 workers|n_workers=0|no workers|empty|len|length
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    n_workers = max(1, n_workers)  # a job has at least its main process
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
