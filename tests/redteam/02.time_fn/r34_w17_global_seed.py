# expect: fail reseeds the global RNG (torch.manual_seed(1234)) before timing "so every run times the same thing", without fork_rng
# hint: seed|generator|random|rng|fork_rng
import statistics
import time

import torch


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    torch.manual_seed(1234)  # same random inputs in every measurement
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
