# expect: fail result cached under (cuda available?, n_workers), so going from 1 to 2 or 3 GPUs returns the stale placement
# hint: cach|memo|stale|each (time|call)|every call|per call|between calls|previous|count|state|changes? what
import d2lgpu
import torch

_cache = {}


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    key = (torch.cuda.is_available(), n_workers)  # recompute when a GPU appears or goes
    if key not in _cache:
        devices = d2lgpu.try_all_gpus()
        _cache[key] = [devices[i % len(devices)] for i in range(n_workers)]
    return list(_cache[key])


answer = place_workers
