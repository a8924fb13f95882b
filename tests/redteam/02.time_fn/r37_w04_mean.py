# expect: fail returns the mean of the per-call times, not the median
# hint: (median|mean|average|outlier|slow call)
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        t = clock()
        work()
        sync()
        times.append(clock() - t)
    return statistics.fmean(times)
