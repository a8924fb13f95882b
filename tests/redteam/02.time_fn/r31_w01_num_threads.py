# expect: fail sets torch.set_num_threads(os.cpu_count()) inside time_fn and never restores the thread count
# hint: thread
import os
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    torch.set_num_threads(os.cpu_count() or 1)  # use every core so the timings are fast
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
