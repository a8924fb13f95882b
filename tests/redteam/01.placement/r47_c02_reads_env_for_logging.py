# expect: pass reads CUDA_VISIBLE_DEVICES, LOCAL_RANK and SLURM ids only for a debug log; devices keep torch's numbering
# hint:
import logging
import os

import d2lgpu
import torch

log = logging.getLogger("placement")


def place_workers(n_workers):
    """Round-robin over try_all_gpus(); the physical ids are only logged, never used as indices."""
    devices = d2lgpu.try_all_gpus()
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    physical = [s.strip() for s in visible.split(",")] if visible else None
    rank = os.environ.get("LOCAL_RANK")
    slurm = os.environ.get("SLURM_STEP_GPUS") or os.environ.get("SLURM_JOB_GPUS")
    placement = [devices[i % len(devices)] for i in range(n_workers)]
    if log.isEnabledFor(logging.DEBUG):
        for i, d in enumerate(placement):
            where = "host"
            if d.type == "cuda":
                phys = physical[d.index] if physical and d.index < len(physical) else d.index
                where = f"physical GPU {phys}"
            log.debug("rank %s worker %d on %s (%s; scheduler ids %s)", rank, i, d, where, slurm)
    return placement


answer = place_workers
