# expect: fail returns the same module-level list every call, so an earlier result changes under its caller
# hint: same (list|object)|shared|alias|reuse|mutat|between calls|state|earlier|previous|changed
import torch

import d2lgpu

_placement = []  # reused: no new list per call


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    _placement.clear()
    _placement.extend(devices[i % len(devices)] for i in range(n_workers))
    return _placement


answer = place_workers
