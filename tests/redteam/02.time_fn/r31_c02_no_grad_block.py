# expect: pass
# hint:
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    with torch.no_grad():
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
