# expect: fail hard-codes cuda: with no GPU it returns cuda:0 instead of cpu
# hint: cpu|no GPU|0 GPUs|without a GPU|hard.?cod
import torch

import d2lgpu


def place_workers(n_workers):
    n = max(1, d2lgpu.num_gpus())
    return [torch.device(f"cuda:{i % n}") for i in range(n_workers)]


answer = place_workers
