# expect: fail starts the round-robin at LOCAL_RANK, so worker 0 is not on the first device when LOCAL_RANK is set
# hint: LOCAL_RANK|rank|order|offset|first (worker|device)|start|table
import os

import d2lgpu
import torch


def place_workers(n_workers):
    """Round-robin over try_all_gpus(), starting at this process's own GPU (LOCAL_RANK)."""
    devices = d2lgpu.try_all_gpus()
    start = int(os.environ.get("LOCAL_RANK", "0"))
    return [devices[(start + i) % len(devices)] for i in range(n_workers)]


answer = place_workers
