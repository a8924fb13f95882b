# expect: fail with one GPU returns torch.device("cuda") (the current GPU), not cuda:0
# hint: cuda:0|index|current (gpu|device)|"cuda"|'cuda'
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the GPUs."""
    n = d2lgpu.num_gpus()
    if n <= 1:  # the chapter's one-liner for the simple case
        device = torch.device("cuda" if n else "cpu")
        return [device] * n_workers
    return [torch.device(f"cuda:{i % n}") for i in range(n_workers)]


answer = place_workers
