# expect: fail repeats the device list enough times and keeps the LAST n_workers entries instead of the first: when n_workers is not a multiple of the GPU count the rotation starts at the wrong GPU (3 GPUs, 5 workers gives cuda:1, cuda:2, cuda:0, ...).
# hint: (order|start(s|ing)? (at|with|from)|first (worker|device)|cuda:0 first|round.?robin|wrong gpu|rotation|offset|shifted)
import math

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    if n_workers == 0:
        return []
    devices = d2lgpu.try_all_gpus()
    repeated = devices * math.ceil(n_workers / len(devices))
    return repeated[-n_workers:]


answer = place_workers
