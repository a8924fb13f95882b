# expect: fail without a GPU returns an empty list (the d2l behaviour) instead of n_workers cpu devices
# hint: cpu|no GPU|0 GPU|zero GPU|empty|none|len|length
import torch


def place_workers(n_workers):
    """Round-robin over the visible GPUs, numbered as torch numbers them."""
    gpus = [torch.device(f"cuda:{i}") for i in range(torch.cuda.device_count())]
    if not gpus:
        return []
    return [gpus[i % len(gpus)] for i in range(n_workers)]


answer = place_workers
