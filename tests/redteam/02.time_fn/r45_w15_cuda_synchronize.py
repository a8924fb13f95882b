# expect: fail calls torch.cuda.synchronize() instead of the given sync(): never waits off CUDA
# hint: sync|synchron|launch
import statistics
import time

import torch


def _wait():
    if torch.cuda.is_available():
        torch.cuda.synchronize()


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    _wait()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        _wait()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
