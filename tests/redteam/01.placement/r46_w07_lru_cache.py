# expect: fail functools.lru_cache keeps the first answer for each n_workers, whatever GPUs appear later
# hint: each (time|call)|every call|inside|once|cach|stale|between calls|chang|state
import functools

import torch

import d2lgpu


@functools.lru_cache(maxsize=None)
def _placement(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return _placement(n_workers)  # cached: a placement is a pure function of n_workers (it is not)


answer = place_workers
