# expect: fail sets torch.set_num_threads(os.cpu_count()) inside time_fn and never restores the thread count
# hint: thread
# open: seen only where torch's default thread count differs from os.cpu_count(): on this 2-core machine both are 2, so set_num_threads(os.cpu_count()) changes nothing a check can read (02.time_fn runs the answer with the learner's own thread count)
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
