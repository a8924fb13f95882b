# expect: fail sets torch to one thread for steadier timings and never restores the thread count
# hint: thread|set_num_threads|process.?wide|setting|restore|put back|changed
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    torch.set_num_threads(1)  # steadier timings on a shared machine
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
