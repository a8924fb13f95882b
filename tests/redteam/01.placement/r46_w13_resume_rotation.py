# expect: fail a global counter continues the rotation from the previous call, so a second call starts at cuda:1
# hint: order|start|first|cuda:0|between calls|state|previous|counter|global|round.?robin
import torch

import d2lgpu

_next = 0  # keeps GPUs balanced across several jobs


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    global _next
    devices = d2lgpu.try_all_gpus()
    placement = []
    for _ in range(n_workers):
        placement.append(devices[_next % len(devices)])
        _next += 1
    return placement


answer = place_workers
