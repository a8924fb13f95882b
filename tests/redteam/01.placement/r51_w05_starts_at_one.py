# expect: fail off by one: the round-robin starts at the second device (cuda:1, cuda:0, ...)
# hint: order|first|cuda:0|start|round.?robin|table|in turn
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    # worker numbers 1..n_workers, as in the job's log
    return [devices[worker % len(devices)] for worker in range(1, n_workers + 1)]


answer = place_workers
