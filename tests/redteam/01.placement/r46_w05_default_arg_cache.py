# expect: fail device list cached in a mutable default argument on the first call
# hint: each (time|call)|every call|inside|once|cach|stale|between calls|chang|state
import torch

import d2lgpu


def place_workers(n_workers, _cache={}):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    if "devices" not in _cache:  # ask the machine only once, it does not change
        _cache["devices"] = d2lgpu.try_all_gpus()
    devices = _cache["devices"]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
