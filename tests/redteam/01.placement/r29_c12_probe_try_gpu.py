# expect: pass builds the GPU list by probing d2lgpu.try_gpu(i) until it answers cpu, then indexes modulo
# hint: 
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's GPUs (or the CPU)."""
    gpus = []
    while (device := d2lgpu.try_gpu(len(gpus))).type == "cuda":
        gpus.append(device)
    devices = gpus or [torch.device("cpu")]
    return [devices[worker % len(devices)] for worker in range(n_workers)]


answer = place_workers
