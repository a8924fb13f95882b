# expect: fail result memoized per n_workers, so a later change in the GPU count is missed
# hint: once|each (time|call)|every call|inside the function|cach|memo|stale|outside|state
import functools

import d2lgpu
import torch


@functools.lru_cache(maxsize=None)
def _placement(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); cached, since the hardware does not change."""
    return _placement(n_workers)


answer = place_workers
