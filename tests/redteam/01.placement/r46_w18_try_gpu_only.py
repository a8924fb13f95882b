# expect: fail every worker on try_gpu(): the second and later GPUs stay idle
# hint: every GPU|busy|idle|unused|cuda:1|all (the )?GPUs|round.?robin|try_all_gpus
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker."""
    return [d2lgpu.try_gpu()] * n_workers  # a GPU if there is one, else the CPU


answer = place_workers
