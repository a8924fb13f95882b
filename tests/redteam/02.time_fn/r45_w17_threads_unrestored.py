# expect: fail sets torch's thread count to 1 for stable timings and never puts it back
# hint: thread
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    torch.set_num_threads(1)  # steadier timings
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
