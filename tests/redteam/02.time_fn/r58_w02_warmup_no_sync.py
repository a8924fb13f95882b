# expect: fail warm-up call is made but not synchronized, so its job still runs into the first measurement
# hint: warm.?up|sync|wait|queue|before (the )?(first )?clock
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()  # warm-up
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
