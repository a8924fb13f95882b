# expect: fail a module-level itertools.cycle keeps its position between calls, so a second call may start at cuda:1
# hint: order|first|cuda:0|start|state|between calls|previous|again|repeat|second call
import itertools

import torch

import d2lgpu

_state = {"devices": None, "cycle": None}


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()  # asked each call, as the prompt says
    if devices != _state["devices"]:  # rebuild only when the machine changed
        _state["devices"] = devices
        _state["cycle"] = itertools.cycle(devices)
    return [next(_state["cycle"]) for _ in range(n_workers)]


answer = place_workers
