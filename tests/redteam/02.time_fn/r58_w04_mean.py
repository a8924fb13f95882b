# expect: fail returns the mean of the per-call times, not the median: one slow call moves it
# hint: median|mean|average|outlier|slow call
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
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
