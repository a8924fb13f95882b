# expect: fail contiguous blocks per GPU (0,0,0,1,1) instead of round-robin order
# hint: order|round.?robin|turn|alternat|interleav|cuda:1|block|contiguous
import math

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    per_device = math.ceil(n_workers / len(devices)) if n_workers else 1
    # worker i goes to the block it falls in: as even as round-robin, and neighbours share a GPU
    return [devices[i // per_device] for i in range(n_workers)]


answer = place_workers
