# expect: fail returns a lazy map iterator (consumed once, no len), not a list or tuple
# hint: list|tuple|iterator|generator|\bmap\b|len\(|sequence
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return map(lambda i: devices[i % len(devices)], range(n_workers))


answer = place_workers
