# expect: fail stops the clock before sync(), so it measures the launch only
# hint: (sync|launch|asynchron|queued|wait)
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    laps = []
    for _ in range(repeats):
        start = clock()
        work()
        stop = clock()
        sync()  # drain the queue before the next measurement
        laps.append(stop - start)
    return statistics.median(laps)
