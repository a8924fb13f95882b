# expect: fail uses at most 4 GPUs (a popular scaling rule of thumb), so on a machine with 5+ GPUs some stay idle
# hint: every GPU|all (the )?GPUs|idle|unused|busy|[4-9] GPUs|more than (3|4|three|four)|cap|limit
import torch

import d2lgpu

_MAX_GPUS = 4  # "data parallelism rarely pays beyond 4 GPUs on one box"


def place_workers(n_workers):
    """Round-robin over the first few GPUs of try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()[:_MAX_GPUS]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
