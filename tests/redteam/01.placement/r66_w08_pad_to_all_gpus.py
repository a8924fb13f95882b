# expect: fail with fewer workers than GPUs, returns one entry per GPU (len > n_workers) to "keep every GPU busy"
# hint: len(gth)?|n_workers|number of|how many|too many|extra|one (device )?per worker|\d+ (devices|entries)
# Wrong: the prompt asks for exactly n_workers devices, one per worker; padding the list up to the
# GPU count invents workers. Right whenever n_workers >= the number of GPUs.
import torch

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    n = max(n_workers, len(devices))  # every GPU gets at least one worker
    return [devices[i % len(devices)] for i in range(n)]


answer = place_workers
