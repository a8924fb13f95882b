# expect: fail result memoised per n_workers with lru_cache: a second call after the GPUs change is stale
# hint: cach|memo|second call|again|each (time|call)|every call|stale|lru
# Wrong: the first call's answer for a given n_workers is returned forever, so the devices are
# not asked for each time the function is called, as the prompt demands.
import functools

import torch

import d2lgpu


@functools.lru_cache(maxsize=None)
def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return tuple(devices[i % len(devices)] for i in range(n_workers))


answer = place_workers
