# expect: fail the devices are a default argument, evaluated once when the function is defined
# hint: cache|stale|each (time|call)|every call|once|inside the function|changed|no longer|default
import torch

import d2lgpu


def place_workers(n_workers, devices=d2lgpu.try_all_gpus()):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
