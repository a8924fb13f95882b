# expect: fail the device list is cached per n_workers with lru_cache, so a changed GPU count is not seen
# hint: cache|stale|each (time|call)|every call|once|inside the function|changed|no longer
import functools

import torch

import d2lgpu


@functools.lru_cache(maxsize=None)
def _placement(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    # "asks inside the function" -- but the answer is memoised, so only the first call asks
    return list(_placement(n_workers))


answer = place_workers
