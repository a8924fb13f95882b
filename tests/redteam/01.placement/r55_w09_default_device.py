# expect: fail sets torch's process-wide default device to the first worker's device and leaves it changed
# hint: default.?device|set_default_device
import torch

import d2lgpu


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); new tensors then land on the first worker's device."""
    devices = d2lgpu.try_all_gpus()
    placed = [devices[i % len(devices)] for i in range(n_workers)]
    if placed:
        torch.set_default_device(placed[0])
    return placed


answer = place_workers
