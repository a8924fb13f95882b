# expect: pass counts GPUs with torch.cuda.is_available()/device_count() as chapter 1.2 does and builds devices with d2lgpu.gpu and d2lgpu.cpu, a generator-free while loop
# hint:
# name: assign_devices
import torch

import d2lgpu


def assign_devices(n_workers):
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    placed = []
    worker = 0
    while worker < n_workers:
        placed.append(d2lgpu.gpu(worker % count) if count else d2lgpu.cpu())
        worker += 1
    return placed
