# expect: fail shares workers out evenly but in contiguous blocks (0,0,0,1,1), not round-robin
# hint: round.?robin|order|in turn|alternat|interleav|table
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker: an even share per device, in blocks."""
    devices = d2lgpu.try_all_gpus()
    n = len(devices)
    base, extra = divmod(n_workers, n)
    placement = []
    for i, device in enumerate(devices):
        placement += [device] * (base + (1 if i < extra else 0))
    return placement


answer = place_workers
