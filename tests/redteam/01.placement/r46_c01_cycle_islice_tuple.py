# expect: pass itertools.cycle sliced with islice, returned as a tuple
# hint:
from itertools import cycle, islice

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return tuple(islice(cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
