# expect: fail returns the fastest time (min) instead of the median
# hint: median|min
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return min(times)  # other programs can only add time


answer = time_fn
