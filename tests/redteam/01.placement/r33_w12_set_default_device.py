# expect: fail also calls torch.set_default_device(first device) and never puts it back, a process-wide setting left changed
# hint: default.?device|set_default_device|changed|put back|restore|process
import torch

import d2lgpu


def place_workers(n_workers):
    devs = d2lgpu.try_all_gpus()
    torch.set_default_device(devs[0])  # so that the workers' tensors land on a device by default
    return [devs[i % len(devs)] for i in range(n_workers)]


answer = place_workers
