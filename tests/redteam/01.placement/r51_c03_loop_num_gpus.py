# expect: pass a plain for loop over d2lgpu.num_gpus(), building torch.device("cuda", i) or cpu
# hint:
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the GPUs, or the CPU."""
    n_gpus = d2lgpu.num_gpus()
    placement = []
    for worker in range(n_workers):
        if n_gpus == 0:
            placement.append(torch.device("cpu"))
        else:
            placement.append(torch.device("cuda", worker % n_gpus))
    return placement


answer = place_workers
