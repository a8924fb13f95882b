# expect: pass numpy object array resized cyclically, converted back with .tolist()
# hint: 
import d2lgpu
import numpy as np


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    pool = np.empty(len(devices), dtype=object)
    pool[:] = devices
    return np.resize(pool, n_workers).tolist()


answer = place_workers
