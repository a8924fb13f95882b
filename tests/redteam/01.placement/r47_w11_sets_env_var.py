# expect: fail sets CUDA_DEVICE_ORDER in os.environ and never puts it back
# hint: environ|environment|CUDA_DEVICE_ORDER|put back|restore|changed|process-wide|left
import os

import d2lgpu
import torch


def place_workers(n_workers):
    """Round-robin over try_all_gpus(), with GPUs numbered in PCI bus order (as nvidia-smi)."""
    os.environ["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"  # popular advice: make cuda:i match nvidia-smi
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
