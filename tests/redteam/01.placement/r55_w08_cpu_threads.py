# expect: fail on a CPU-only machine it splits the cores between workers with torch.set_num_threads and never puts the thread count back
# hint: thread
import os

import torch

import d2lgpu


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); CPU workers get a fair share of the cores."""
    devices = d2lgpu.try_all_gpus()
    if devices[0].type == "cpu" and n_workers > 0:
        # popular advice: avoid oversubscription when several workers share the CPU
        torch.set_num_threads(max(1, (os.cpu_count() or 1) // n_workers))
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
