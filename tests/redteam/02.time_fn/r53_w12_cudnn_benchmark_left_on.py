# expect: fail turns on torch.backends.cudnn.benchmark for "steady" timings and never puts it back
# hint: backends|cudnn|benchmark|flag|setting|changed|put back|restor
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    # popular advice: let cuDNN pick its fastest algorithms once, so timings are steady
    torch.backends.cudnn.benchmark = True
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
