# expect: pass repeats the device list enough times and slices it, in an explicit loop-free style
# hint:
import math

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = list(d2lgpu.try_all_gpus())
    rounds = math.ceil(n_workers / len(devices)) if n_workers > 0 else 0
    return (devices * rounds)[:n_workers]


answer = place_workers
