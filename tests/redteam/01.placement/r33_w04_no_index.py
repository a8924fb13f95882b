# expect: fail uses torch.device("cuda") without an index, so every worker lands on the current GPU rather than on each GPU
# hint: index|cuda:\d|every GPU|each GPU|busy|round|distinct|cuda:1
import torch

import d2lgpu


def place_workers(n_workers):
    n = d2lgpu.num_gpus()
    if n == 0:
        return [torch.device("cpu")] * n_workers
    return [torch.device("cuda") for _ in range(n_workers)]


answer = place_workers
