# expect: fail on one GPU returns torch.device("cuda") (the current GPU, no index) instead of cuda:0
# hint: index|cuda:0|current (GPU|device)|bare|without an index|"cuda"
import d2lgpu
import torch


def place_workers(n_workers):
    """Round-robin over the GPUs; with a single GPU just use "cuda"."""
    n = d2lgpu.num_gpus()
    if n == 0:
        return [torch.device("cpu")] * n_workers
    if n == 1:
        return [torch.device("cuda")] * n_workers
    return [torch.device("cuda", i % n) for i in range(n_workers)]


answer = place_workers
