# expect: fail torch.median returns the lower of the two middle times for an even number of repeats, not their mean
# hint: even|lower|two middle|middle (two|ones)|torch\.median|statistics\.median|mean of the
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
