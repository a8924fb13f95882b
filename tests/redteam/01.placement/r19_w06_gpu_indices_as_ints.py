# expect: fail returns plain int GPU indices (which torch accepts as devices) instead of torch.device objects when there are GPUs
# hint: int|torch\.device|type|index|not a device|integer
import d2lgpu
import torch


def place_workers(n_workers):
    """Return one device per worker, round-robin over the GPUs."""
    n_gpus = d2lgpu.num_gpus()
    if n_gpus == 0:
        return [torch.device("cpu")] * n_workers
    return [i % n_gpus for i in range(n_workers)]  # torch.zeros(1, device=1) works too


answer = place_workers
