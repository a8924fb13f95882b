# expect: fail Also calls torch.set_default_device(first device) so that the workers' tensors land there, changing a process-wide torch setting the caller owns and never putting it back.
# hint: default.device|set_default_device|setting|process|put back|changed
# name: place_workers
import torch

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    torch.set_default_device(devices[0])  # new tensors go to the first worker's device
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
