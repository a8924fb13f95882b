# expect: fail besides returning the right list, calls torch.set_default_device(devices[0]) so that workers' tensors "land on the right GPU": a process-wide side effect the prompt does not ask for, which makes every later factory call without device= (in the caller, in other code) allocate on the first GPU, and fail where that GPU is not real.
# hint: (set_default_device|default device|side.?effect|global (state|setting)|process.?wide|changed? (the )?default|factory|later tensors?)
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    placed = [devices[i % len(devices)] for i in range(n_workers)]
    if placed:
        torch.set_default_device(placed[0])  # new tensors go to the first worker's device
    return placed


answer = place_workers
