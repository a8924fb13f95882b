# expect: fail returns a numpy object array (np.resize) instead of a list
# hint: list|ndarray|numpy|array|type
import d2lgpu
import numpy as np


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    pool = np.empty(len(devices), dtype=object)
    pool[:] = devices
    return np.resize(pool, n_workers)  # repeats the pool cyclically


answer = place_workers
