# expect: fail torch.median: with an even number of repeats it returns the lower middle time, not their mean
# hint: median|even|middle|lower|statistics
# Wrong: step 3 asks for statistics.median, the mean of the two middle times for an even
# count; torch.median returns the lower one. Odd repeats (the default 5) hide it.
import time

import torch


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return torch.tensor(times, dtype=torch.float64).median().item()
