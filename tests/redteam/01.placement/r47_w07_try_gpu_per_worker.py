# expect: fail try_gpu(i) per worker: workers past the last GPU land on the CPU instead of wrapping round
# hint: cpu|every GPU|idle|busy|round.?robin|wrap|evenly|try_gpu
import d2lgpu
import torch


def place_workers(n_workers):
    """Worker i on GPU i when there is one (try_gpu falls back to the CPU)."""
    return [d2lgpu.try_gpu(i) for i in range(n_workers)]


answer = place_workers
