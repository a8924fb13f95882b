# expect: pass
# hint:
# Right: itertools.cycle over the current device list, cut to n_workers and made a list.
import itertools

import torch

import d2lgpu


def place_workers(n_workers):
    return list(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))


answer = place_workers
