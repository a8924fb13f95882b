# expect: fail counts GPUs as len(try_all_gpus()), which is 1 on a CPU-only machine, so it returns cuda:0 there
# hint: cpu|no gpu|0 gpus?|zero|without (a )?gpu|never empty|none
# Wrong: try_all_gpus() is never empty (it is [cpu] without a GPU), so its length is not the GPU
# count; on a machine with no GPU this names cuda:0 for every worker instead of cpu.
import torch

import d2lgpu


def place_workers(n_workers):
    n_gpus = len(d2lgpu.try_all_gpus())
    return [torch.device("cuda", i % n_gpus) for i in range(n_workers)]


answer = place_workers
