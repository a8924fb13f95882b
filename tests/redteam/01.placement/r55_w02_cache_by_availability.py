# expect: fail result cached on (n_workers, is_available()), so going from 1 to 2 or 3 GPUs returns the stale list
# hint: cache|stale|each time|every call|inside the function|once|changed? .*GPU|GPU count
import functools

import torch

import d2lgpu


@functools.lru_cache(maxsize=None)
def _placement(n_workers, have_gpu):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    """Cached: the placement only depends on whether there is a GPU (it does not: the count matters)."""
    return list(_placement(n_workers, torch.cuda.is_available()))


answer = place_workers
