# expect: pass indices computed with torch.arange(...).remainder(...).tolist()
# hint: 
import d2lgpu
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    slots = torch.arange(n_workers).remainder(len(devices)).tolist()
    return [devices[s] for s in slots]


answer = place_workers
