# expect: fail calls torch.set_default_device(first device) and never puts the process-wide default back
# hint: default.?device|set_default|process.?wide|put (it )?back|restor|changed|left
# Wrong: the exercise file says to put back any process-wide setting you change; after this call
# every new tensor in the caller's process lands on cuda:0 instead of the CPU.
import torch

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    torch.set_default_device(devices[0])  # so worker tensors made without a device go there too
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
