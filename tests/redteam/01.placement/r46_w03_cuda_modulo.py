# expect: fail hard-codes cuda: gives cuda:0 on a machine with no GPU instead of cpu
# hint: cpu|no GPU|0 GPU|zero GPU|without a GPU|hard.?cod|cuda:0
import torch


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the GPUs."""
    count = max(1, torch.cuda.device_count())  # max(1, ...) avoids a division by zero
    return [torch.device("cuda", i % count) for i in range(n_workers)]


answer = place_workers
