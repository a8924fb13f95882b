# expect: fail uses at most two GPUs
# hint: got no worker.*every device
import torch
def answer(n_workers):
    n = min(torch.cuda.device_count(), 2)
    if n == 0:
        return [torch.device("cpu")] * n_workers
    return [torch.device("cuda", i % n) for i in range(n_workers)]
