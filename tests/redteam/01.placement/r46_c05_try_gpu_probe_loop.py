# expect: pass probes try_gpu(i) until it falls back to the CPU, then a while loop hands devices out
# hint:
import torch

import d2lgpu


def _gpus_or_cpu():
    gpus = []
    while (device := d2lgpu.try_gpu(len(gpus))).type != "cpu":  # try_gpu(i) is cpu past the last GPU
        gpus.append(device)
    return gpus or [d2lgpu.cpu()]


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's GPUs (or the CPU)."""
    devices = _gpus_or_cpu()
    placement, worker = [], 0
    while worker < n_workers:
        placement.append(devices[worker % len(devices)])
        worker += 1
    return placement


answer = place_workers
