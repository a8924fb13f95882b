# expect: pass
# hint:
# Right: asks torch.cuda directly (is_available, then device_count) on each call, as the chapter's
# "without the course" line does, and builds explicit cuda:i devices (never "cuda" with no index).
import torch


def place_workers(n_workers):
    n_gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if n_gpus == 0:
        return [torch.device("cpu")] * n_workers
    return [torch.device("cuda", i % n_gpus) for i in range(n_workers)]


answer = place_workers
