# expect: fail leaves cuda:0 to the main process when there are several GPUs, so one GPU stays idle
# hint: every GPU|busy|idle|unused|cuda:0|all (the )?GPUs|order|round.?robin
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if len(devices) > 1:
        devices = devices[1:]  # GPU 0 hosts the main process (and the display): keep it free
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
