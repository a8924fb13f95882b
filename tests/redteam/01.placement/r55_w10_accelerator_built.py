# expect: fail takes the device type from torch.accelerator.current_accelerator() without check_available, so a CUDA build with no GPU gets 'cuda' instead of cpu
# hint: \bcpu\b|no GPU|0 GPUs?|zero GPUs|check_available|accelerator|built
import torch

import d2lgpu


def place_workers(n_workers):
    """Device-generic round-robin: the accelerator's type, one index per visible device."""
    accelerator = torch.accelerator.current_accelerator()
    kind = accelerator.type if accelerator is not None else "cpu"
    count = d2lgpu.num_gpus()
    devices = [torch.device(kind, i) for i in range(count)] or [torch.device(kind)]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
