# expect: fail zip stops at the shorter list: more workers than devices get only one device each
# hint: len|length|n_workers|number|count|short|fewer|workers than devices|\d+ devices?
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return [device for _, device in zip(range(n_workers), devices)]


answer = place_workers
