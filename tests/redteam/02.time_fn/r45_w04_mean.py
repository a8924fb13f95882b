# expect: fail returns the mean, which a slow outlier moves, instead of the median
# hint: median|mean|outlier
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
    return statistics.mean(times)


answer = time_fn
