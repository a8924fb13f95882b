# expect: fail uses try_gpu(i) per worker, which falls back to cpu for workers beyond the GPU count
# hint: cpu|busy|every gpu|round.?robin|in turn|fall ?back
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker: worker i on GPU i if it exists."""
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
