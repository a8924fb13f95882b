# expect: fail sets torch.backends.cudnn.benchmark = True for steadier timings and never puts it back
# hint: cudnn|backends|flag|setting|changed|benchmark
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    torch.backends.cudnn.benchmark = True  # let cuDNN pick its fastest kernels before timing
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
