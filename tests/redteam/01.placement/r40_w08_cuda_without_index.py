# expect: fail gives torch.device('cuda') with no index when there is one GPU, which is not cuda:0
# hint: (cuda:0|index|one GPU|1 GPU|torch\.device\('cuda'\))
# name: place_workers
import torch

import d2lgpu


def place_workers(n_workers):
    n = d2lgpu.num_gpus()
    if n == 0:
        return [torch.device("cpu")] * n_workers
    if n == 1:
        return [torch.device("cuda")] * n_workers  # the only GPU
    return [torch.device(f"cuda:{i % n}") for i in range(n_workers)]
