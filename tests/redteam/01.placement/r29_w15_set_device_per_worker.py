# expect: fail calls torch.cuda.set_device for each worker "to assign it", which initializes CUDA and changes the process's current GPU as a side effect (left on the last GPU used); naming a device needs no hardware, and with GPUs the machine lacks (or reported by a fake) it raises.
# hint: (set_device|current (gpu|device)|side.?effect|touch(es|ed)? the hardware|initiali[sz]|cuda (call|init)|no hardware|naming a device)
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    placed = []
    for i in range(n_workers):
        device = devices[i % len(devices)]
        if device.type == "cuda":
            torch.cuda.set_device(device)  # make the worker's GPU current
            device = torch.device("cuda", torch.cuda.current_device())
        placed.append(device)
    return placed


answer = place_workers
