# expect: pass counts GPUs with d2lgpu.num_gpus() on each call, builds cuda:i itself (cpu if none) and repeats with divmod
# hint:
import torch

import d2lgpu


def place_workers(n_workers):
    """Whole rounds over every device, then the first few again: the same as round-robin."""
    gpus = [torch.device("cuda", i) for i in range(d2lgpu.num_gpus())]
    devices = gpus or [d2lgpu.cpu()]
    rounds, rest = divmod(n_workers, len(devices))
    placed = devices * rounds + devices[:rest]
    assert len(placed) == n_workers
    return placed


answer = place_workers
