# expect: fail rotation starts at the second device (cuda:1, cuda:0, ...)
# hint: order|round.?robin|first|start|cuda:0|cuda:1|turn
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    # workers are numbered from 1 in the job's config
    return [devices[worker % len(devices)] for worker in range(1, n_workers + 1)]


answer = place_workers
