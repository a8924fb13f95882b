# expect: fail names the lone GPU as torch.device("cuda") (the current GPU, no index) instead of cuda:0
# hint: index|cuda:0|current|explicit|cuda\b.*without
# Wrong: with one GPU the table asks for cuda:0; "cuda" without an index is the *current* GPU,
# a different torch.device (it is not == cuda:0), and moves with torch.cuda.set_device.
import torch

import d2lgpu


def place_workers(n_workers):
    n_gpus = d2lgpu.num_gpus()
    if n_gpus == 0:
        return [torch.device("cpu")] * n_workers
    if n_gpus == 1:
        return [torch.device("cuda")] * n_workers  # the only GPU
    return [torch.device("cuda", i % n_gpus) for i in range(n_workers)]


answer = place_workers
