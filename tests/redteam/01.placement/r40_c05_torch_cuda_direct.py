# expect: pass asks torch.cuda.is_available() and device_count() directly (what PyTorch reports), torch.device('cuda', i)
# hint: 
# name: place_workers
import torch


def place_workers(n_workers):
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if not count:
        return [torch.device("cpu")] * n_workers
    return [torch.device("cuda", i % count) for i in range(n_workers)]
