# expect: pass callable class whose lru_cache is keyed on the devices asked for on each call, returning an immutable tuple
# hint:
import functools

import torch

import d2lgpu


class WorkerPlacer:
    """place_workers as an object: asks for the devices every call, caches only the arithmetic."""

    def __call__(self, n_workers):
        devices = tuple(d2lgpu.try_all_gpus())  # asked every call; the cache key holds the answer
        return self._spread(int(n_workers), devices)

    @staticmethod
    @functools.lru_cache(maxsize=64)
    def _spread(n_workers, devices):
        return tuple(devices[i % len(devices)] for i in range(n_workers))  # a tuple: nobody can edit the cached value


answer = WorkerPlacer()
assert all(isinstance(d, torch.device) for d in answer(0) + tuple(d2lgpu.try_all_gpus()))
