# expect: pass median as the 0.5 quantile of a float64 tensor (linear interpolation averages the two middle times), returned as a Python float
# hint:
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = torch.empty(repeats, dtype=torch.float64)
    for i in range(repeats):
        start = clock()
        work()
        sync()
        times[i] = clock() - start
    return float(torch.quantile(times, 0.5, interpolation="linear"))


answer = time_fn
