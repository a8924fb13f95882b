# expect: fail deals out full rounds over the GPUs and puts the leftover workers (n_workers not a multiple of the GPU count) on the CPU "to keep the GPUs even": 5 workers on 2 GPUs gives cuda:0, cuda:1, cuda:0, cuda:1, cpu.
# hint: (cpu|leftover|remainder|round.?robin|every worker on a gpu|gpu machine|not a multiple)
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    full_rounds, leftover = divmod(n_workers, len(devices))
    placed = devices * full_rounds
    if devices[0].type == "cuda":
        # the GPUs stay perfectly balanced; stragglers go to the host
        placed += [torch.device("cpu")] * leftover
    else:
        placed += devices[:leftover]
    return placed


answer = place_workers
