# expect: fail torch.median takes the lower middle value when repeats is even
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
