# expect: fail syncs before work() instead of after it: each measurement waits for the previous job and the last job is left running
# hint: sync|wait|after work|still running|queue|unfinished|launch
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()  # warm-up
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        sync()  # make sure the device is idle, then run
        work()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
