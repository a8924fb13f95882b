# expect: fail returns one device per GPU even when n_workers is smaller ("keep every GPU busy"), so too many devices
# hint: n_workers|length|len\b|how many|number of|count|too many|more than|one device per worker
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    # keep every GPU busy: at least one worker per device
    n = max(n_workers, len(devices)) if n_workers else 0
    return [devices[i % len(devices)] for i in range(n)]


answer = place_workers
