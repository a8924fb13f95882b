# expect: pass while loop, torch.quantile(0.5) in float64 (interpolates like statistics.median)
# hint: 
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    samples = []
    while len(samples) < repeats:
        begin = clock()
        work()
        sync()
        end = clock()
        samples.append(end - begin)
    return torch.tensor(samples, dtype=torch.float64).quantile(0.5).item()


answer = time_fn
