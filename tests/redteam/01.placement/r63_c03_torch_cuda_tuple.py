# expect: pass
# hint:
# Right: asks torch.cuda directly (is_available, then device_count, chapter 1.2), as num_gpus()
# does, builds torch.device("cuda", i), falls back to the CPU, and returns a tuple (allowed).
import itertools

import torch


def place_workers(n_workers):
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    devices = [torch.device("cuda", i) for i in range(count)] or [torch.device("cpu")]
    return tuple(itertools.islice(itertools.cycle(devices), n_workers))


answer = place_workers
