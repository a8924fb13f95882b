# expect: fail no warm-up call: the first measurement pays the one-off costs
# hint: warm.?up|first call|one.?off|cold
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    sync()  # start with an empty queue
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
