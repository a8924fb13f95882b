# expect: fail Builds cuda:i names from max(1, num_gpus()), so a machine without a GPU gets cuda:0 for every worker instead of cpu.
# hint: cpu|no GPU|without a GPU|try_all_gpus|cuda:0
# name: place_workers
import torch

import d2lgpu


def place_workers(n_workers):
    count = max(1, d2lgpu.num_gpus())  # avoid dividing by zero
    return [torch.device(f"cuda:{i % count}") for i in range(n_workers)]


answer = place_workers
