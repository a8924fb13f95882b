# expect: fail puts the CPU in the rotation beside the GPUs when GPUs exist (cpu, cuda:0, cuda:1, ...)
# hint: CPU in it
import torch

import d2lgpu


def place_workers(n_workers):
    gpus = [torch.device(f"cuda:{i}") for i in range(d2lgpu.num_gpus())]
    pool = [torch.device("cpu")] + gpus
    return [pool[i % len(pool)] for i in range(n_workers)]


answer = place_workers
