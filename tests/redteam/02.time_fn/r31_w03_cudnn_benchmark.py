# expect: fail sets torch.backends.cudnn.benchmark = True (and allow_tf32) for faster timings and leaves them set
# hint: cudnn|benchmark|tf32
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    torch.backends.cudnn.benchmark = True  # let cuDNN pick its fastest kernels
    torch.backends.cuda.matmul.allow_tf32 = True
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
