# expect: fail uses torch.median, which returns the lower middle time for an even number of repeats
# hint: median|even|middle|lower|torch\.median|two middle
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
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
