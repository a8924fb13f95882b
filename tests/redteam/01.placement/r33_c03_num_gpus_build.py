# expect: pass builds torch.device("cuda", k) by hand from d2lgpu.num_gpus(), CPU when there is none
# hint:
import torch

import d2lgpu


def place_workers(n_workers):
    count = d2lgpu.num_gpus()
    if count == 0:
        return [torch.device("cpu") for _ in range(n_workers)]
    return [torch.device("cuda", worker % count) for worker in range(n_workers)]


answer = place_workers
