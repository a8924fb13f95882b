# expect: fail names GPUs by their physical ids from CUDA_VISIBLE_DEVICES, which PyTorch renumbers from 0
# hint: CUDA_VISIBLE_DEVICES|renumber|visible|physical|cuda:0|index|exist
import os

import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the GPUs this job was given."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is None:
        devices = d2lgpu.try_all_gpus()
    else:  # the scheduler tells us our GPUs, e.g. "2,3"
        ids = [int(part) for part in visible.split(",") if part.strip()]
        devices = [torch.device("cuda", i) for i in ids] or [torch.device("cpu")]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
