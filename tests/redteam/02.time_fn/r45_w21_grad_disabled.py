# expect: fail switches autograd off process-wide (set_grad_enabled(False)) and leaves it off
# hint: grad
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    torch.set_grad_enabled(False)  # no graph building while we time
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
