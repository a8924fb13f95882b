# expect: fail counts GPUs by parsing the CUDA_VISIBLE_DEVICES environment variable instead of asking PyTorch: unset (the usual case) it places everything on the CPU even with GPUs, and it ignores what PyTorch reports.
# hint: (cuda_visible_devices|environment|env(iron)? var|ask (pytorch|torch)|try_all_gpus|num_gpus|device_count|cpu (instead|expected|on a gpu)|expected .?cuda)
import os

import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the visible GPUs."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    ids = [v for v in visible.split(",") if v.strip()]
    # CUDA renumbers the visible GPUs from 0
    devices = [torch.device("cuda", i) for i in range(len(ids))] or [torch.device("cpu")]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
