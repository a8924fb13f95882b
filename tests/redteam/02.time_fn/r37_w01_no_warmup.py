# expect: fail no warm-up call before the measurements
# hint: warm
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    sync()  # make sure nothing is pending
    samples = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        samples.append(clock() - t0)
    return statistics.median(samples)
