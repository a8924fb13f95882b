# expect: pass plain loop over explicit start/stop clock reads, statistics.median
# hint:
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    # one untimed call so one-off costs stay out of the samples
    work()
    sync()
    elapsed = []
    for _ in range(repeats):
        before = clock()
        work()
        sync()
        after = clock()
        elapsed.append(after - before)
    return statistics.median(elapsed)
