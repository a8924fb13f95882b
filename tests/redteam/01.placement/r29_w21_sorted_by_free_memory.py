# expect: fail orders the GPUs by free memory (torch.cuda.mem_get_info) before the round-robin, so the most empty GPU gets worker 0: it touches the hardware on every call (CUDA context on each GPU), fails where the GPUs are only named, and the order is no longer cuda:0, cuda:1, ... whenever the GPUs' free memory differ.
# hint: (mem_get_info|free memory|touch(es|ed)? the hardware|naming a device|no hardware|cuda context|initiali[sz]|order|round.?robin|sort)
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over d2lgpu.try_all_gpus()."""
    devices = d2lgpu.try_all_gpus()
    if devices[0].type == "cuda":
        # emptiest GPU first: it takes the extra worker when the split is uneven
        devices = sorted(devices, key=lambda d: torch.cuda.mem_get_info(d)[0], reverse=True)
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
