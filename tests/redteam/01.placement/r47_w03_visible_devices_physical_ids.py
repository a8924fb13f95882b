# expect: fail names devices by the physical ids in CUDA_VISIBLE_DEVICES instead of torch's renumbered cuda:0..n-1
# hint: CUDA_VISIBLE_DEVICES|physical|renumber|visible|torch's (own )?number|index
import os

import d2lgpu
import torch


def place_workers(n_workers):
    """Round-robin over the GPUs this job was given (by their ids in CUDA_VISIBLE_DEVICES)."""
    n = d2lgpu.num_gpus()
    if n == 0:
        return [torch.device("cpu")] * n_workers
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    ids = [int(s) for s in visible.split(",") if s.strip().isdigit()][:n]
    if len(ids) < n:  # not set (or not fully): the GPUs are numbered from 0
        ids = list(range(n))
    return [torch.device("cuda", ids[i % len(ids)]) for i in range(n_workers)]


answer = place_workers
