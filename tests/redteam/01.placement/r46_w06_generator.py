# expect: fail returns a lazy itertools.islice iterator, not a list or tuple
# hint: list|tuple|generator|map|iterator|islice|type|sequence
import itertools

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return itertools.islice(itertools.cycle(devices), n_workers)  # lazy: no list built


answer = place_workers
