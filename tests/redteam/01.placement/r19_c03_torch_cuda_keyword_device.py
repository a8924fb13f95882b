# expect: pass asks torch.cuda directly each call, torch.device(type=..., index=...) keyword form
# hint: 
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the visible CUDA devices."""
    n_gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if n_gpus == 0:
        return [torch.device(type="cpu") for _ in range(n_workers)]
    return [torch.device(type="cuda", index=w % n_gpus) for w in range(n_workers)]


answer = place_workers
