# expect: fail turns autograd off process-wide with torch.set_grad_enabled(False) and never turns it back on
# hint: grad
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    torch.set_grad_enabled(False)  # timing needs no autograd graph
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
