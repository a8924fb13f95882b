# expect: fail puts the CPU in the rotation next to the GPUs
# hint: cpu|CPU|order|round.?robin|GPU
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if devices[0].type != "cpu":
        devices = devices + [torch.device("cpu")]  # the CPU can carry a worker too
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
