# expect: fail calls torch.cuda.synchronize() instead of the given sync() whenever CUDA is available
# hint: sync
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    # the real barrier when there is a GPU; the given sync() otherwise
    barrier = torch.cuda.synchronize if torch.cuda.is_available() else sync
    work()
    barrier()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        barrier()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
