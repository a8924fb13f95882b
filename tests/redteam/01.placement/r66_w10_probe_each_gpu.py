# expect: fail makes a tensor on each GPU to "check" it (touches the hardware) and silently falls back to cpu
# hint: touch|tensor|allocat|hardware|context|initiali[sz]|naming|probe|cpu|fall.?back
# Wrong: the chapter says naming a device is free and does not touch the hardware; this allocates
# on every GPU (creating a CUDA context on each) and, where that fails, silently swaps in the CPU.
import torch

import d2lgpu


def place_workers(n_workers):
    usable = []
    for device in d2lgpu.try_all_gpus():
        try:
            torch.empty(1, device=device)  # make sure the device really works
            usable.append(device)
        except (RuntimeError, AssertionError):
            pass
    usable = usable or [d2lgpu.cpu()]
    return [usable[i % len(usable)] for i in range(n_workers)]


answer = place_workers
