# expect: fail takes the device type from torch.accelerator.current_accelerator() without check_available, so with no GPU it places workers on cuda instead of cpu
# hint: cpu|no gpu|0 gpus|zero gpus|without a gpu|check_available|accelerator|built for|fall ?back
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    # device-generic: whatever accelerator torch has (cuda, xpu, mps), else the CPU
    accelerator = torch.accelerator.current_accelerator()
    kind = accelerator.type if accelerator is not None else "cpu"
    count = d2lgpu.num_gpus()
    devices = [torch.device(kind, i) for i in range(count)] or [torch.device(kind)]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
