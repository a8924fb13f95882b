# expect: fail ignores repeats and always takes 5 measurements
# hint: repeats|measurements|number of (calls|times|measurements)|how many|count
import statistics
import time

REPEATS = 5


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(REPEATS):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
