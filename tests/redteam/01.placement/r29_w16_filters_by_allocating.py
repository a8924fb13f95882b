# expect: fail "validates" each GPU by allocating a tensor on it and drops the ones that fail: that touches the hardware (CUDA context, memory) on every call, and wherever a GPU is reported but cannot allocate (a busy card, the checker's fake GPUs) workers silently fall back to the CPU.
# hint: (allocat|tensor on|touch(es|ed)? the hardware|naming a device|no hardware|cuda context|try.?except|fall(s|ing)? back|cpu (instead|expected)|expected .?cuda)
import torch

import d2lgpu


def usable(device):
    try:
        torch.empty(1, device=device)  # make sure the device really works
        return True
    except (RuntimeError, AssertionError):
        return False


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = [d for d in d2lgpu.try_all_gpus() if usable(d)] or [torch.device("cpu")]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
