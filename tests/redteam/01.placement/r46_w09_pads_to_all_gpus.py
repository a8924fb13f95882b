# expect: fail returns at least one entry per GPU, more than n_workers when workers are fewer than GPUs
# hint: len|length|n_workers|number|count|more|too many|extra|per worker
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    total = max(n_workers, len(devices))  # "keeps every GPU busy": every GPU gets a worker
    return [devices[i % len(devices)] for i in range(total)]


answer = place_workers
