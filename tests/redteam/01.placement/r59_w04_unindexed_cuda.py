# expect: fail with a single GPU returns the unindexed torch.device("cuda") (the current GPU) instead of cuda:0
# hint: index|cuda:0|unindexed|current (gpu|device)|"cuda"|bare cuda|without an index
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if len(devices) == 1:
        # one device: no need for an index, "cuda" is the GPU (or the CPU)
        only = torch.device(devices[0].type)
        return [only] * n_workers
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
