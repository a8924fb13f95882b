# expect: pass a tuple built with itertools.islice over a fresh itertools.cycle each call
# hint:
import itertools

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return tuple(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
