# expect: pass itertools.cycle and islice over try_all_gpus(), returned as a tuple
# hint:
import itertools

import d2lgpu
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return tuple(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
