# expect: fail one GPU gives torch.device("cuda") without an index, not cuda:0
# hint: cuda:0|index|torch\.device\(.?cuda.?\)|current
import torch

import d2lgpu


def place_workers(n_workers):
    """Return one torch.device per worker, round-robin over the machine's devices."""
    count = d2lgpu.num_gpus()
    if count == 0:
        devices = [torch.device("cpu")]
    elif count == 1:
        devices = [torch.device("cuda")]  # the one GPU: the current device
    else:
        devices = [torch.device("cuda", i) for i in range(count)]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = place_workers
