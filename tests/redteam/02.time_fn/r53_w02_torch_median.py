# expect: fail torch.median returns the lower middle value for an even number of repeats
# hint: median|even|middle|lower
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return torch.tensor(times, dtype=torch.float64).median().item()


answer = time_fn
