# expect: pass functools.partial of a generic round-robin that calls its device-pool function on every call
# hint:
import functools

import d2lgpu
import torch


def round_robin(n_workers, pool):
    """Worker i gets pool()[i mod len(pool())]; pool is asked afresh on every call."""
    devices = [torch.device(d) for d in pool()]
    return [devices[i % len(devices)] for i in range(n_workers)]


answer = functools.partial(round_robin, pool=d2lgpu.try_all_gpus)
