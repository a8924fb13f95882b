# expect: fail takes the index modulo n_workers instead of the GPU count: names cuda:2, cuda:3... that do not exist
# hint: exist|no such|beyond|out of range|cuda:[2-9]|number of GPUs|GPU count|modulo|%|wrap|index|round.?robin|more (devices|GPUs)
import d2lgpu
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    if d2lgpu.num_gpus() == 0:
        return [torch.device("cpu")] * n_workers
    return [torch.device("cuda", i % n_workers) for i in range(n_workers)]


answer = place_workers
