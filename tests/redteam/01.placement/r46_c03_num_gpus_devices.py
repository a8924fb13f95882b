# expect: pass builds torch.device("cuda", i) from d2lgpu.num_gpus(), CPU when it is 0, with a for loop and divmod
# hint:
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's GPUs (or the CPU)."""
    count = d2lgpu.num_gpus()
    placement = []
    for worker in range(n_workers):
        if count == 0:
            placement.append(torch.device("cpu"))
        else:
            _, gpu = divmod(worker, count)
            placement.append(torch.device(f"cuda:{gpu}"))
    return placement


answer = place_workers
