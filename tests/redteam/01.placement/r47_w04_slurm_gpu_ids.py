# expect: fail takes GPU ids from the scheduler's SLURM_STEP_GPUS/SLURM_JOB_GPUS (physical ids), not torch's numbering
# hint: SLURM|scheduler|physical|renumber|CUDA_VISIBLE_DEVICES|torch's (own )?number|index
import os

import d2lgpu
import torch


def _scheduler_gpu_ids():
    for name in ("SLURM_STEP_GPUS", "SLURM_JOB_GPUS"):
        value = os.environ.get(name)
        if value:
            return [int(s) for s in value.split(",") if s.strip().isdigit()]
    return None


def place_workers(n_workers):
    """Round-robin over the GPUs the scheduler allocated, or over try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    ids = _scheduler_gpu_ids()
    if ids and devices[0].type == "cuda":
        devices = [torch.device("cuda", k) for k in ids[: len(devices)]]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
