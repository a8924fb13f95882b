# expect: fail zip over the devices stops at the device count: fewer than n_workers devices returned
# hint: len|length|n_workers|number of|how many|count|too few|one per worker|every worker|one device per worker
import d2lgpu
import torch


def place_workers(n_workers):
    """One device per worker, round-robin over try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    return [device for _, device in zip(range(n_workers), devices)]


answer = place_workers
