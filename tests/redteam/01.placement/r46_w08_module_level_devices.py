# expect: fail devices asked once at import, outside the function
# hint: each (time|call)|every call|inside|once|outside|cach|stale|import|chang
import torch

import d2lgpu

DEVICES = d2lgpu.try_all_gpus()  # the machine's devices, looked up once


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return [DEVICES[i % len(DEVICES)] for i in range(n_workers)]


answer = place_workers
