# expect: fail GPU entries are strings like "cuda:1", not torch.device (only the CPU fallback is a device)
# hint: torch\.device|str(ing)?|type|not a device
# Wrong: the prompt asks for a list of torch.devices; "cuda:0" is a str and is not == a
# torch.device. It slips through on a machine without a GPU, where the entries are d2lgpu.cpu().
import torch

import d2lgpu


def place_workers(n_workers):
    n_gpus = d2lgpu.num_gpus()
    if n_gpus == 0:
        return [d2lgpu.cpu() for _ in range(n_workers)]
    return [f"cuda:{i % n_gpus}" for i in range(n_workers)]


answer = place_workers
