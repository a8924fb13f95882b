# expect: pass
# hint:
import os
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    before = torch.get_num_threads()
    torch.set_num_threads(os.cpu_count() or 1)
    try:
        work()
        sync()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(clock() - start)
        return statistics.median(times)
    finally:
        torch.set_num_threads(before)


answer = time_fn
