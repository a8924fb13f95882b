# expect: fail falls back to torch.accelerator.current_accelerator() without check_available: "cuda" on a CPU-only machine
# hint: cpu|no gpu|0 gpus?|zero|check_available|accelerator|built|without (a )?gpu
# Wrong: chapter 1.7's trap: current_accelerator() names what torch was built for, cuda even
# with no GPU, so a machine without a GPU gets "cuda" workers instead of cpu.
import torch

import d2lgpu


def place_workers(n_workers):
    n_gpus = d2lgpu.num_gpus()
    accel = torch.accelerator.current_accelerator() or torch.device("cpu")
    if n_gpus == 0:
        return [torch.device(accel.type)] * n_workers
    return [torch.device(accel.type, i % n_gpus) for i in range(n_workers)]


answer = place_workers
