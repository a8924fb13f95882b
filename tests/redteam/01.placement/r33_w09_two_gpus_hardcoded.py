# expect: fail hard-codes the two-GPU example of the table (i % 2) whenever there is a GPU, wrong for 1 and 3 GPUs
# hint: cuda:1|cuda:2|3 GPUs|1 GPU|one GPU|three|every GPU|hard.?cod|exist
import torch

import d2lgpu


def place_workers(n_workers):
    if d2lgpu.num_gpus() == 0:
        return [torch.device("cpu")] * n_workers
    return [torch.device(f"cuda:{i % 2}") for i in range(n_workers)]


answer = place_workers
