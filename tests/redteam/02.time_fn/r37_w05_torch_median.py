# expect: fail torch.median gives the lower middle value for an even number of repeats
# hint: (median|even|middle|lower)
# name: time_fn
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    out = torch.empty(repeats, dtype=torch.float64)
    for i in range(repeats):
        t0 = clock()
        work()
        sync()
        out[i] = clock() - t0
    return out.median().item()
