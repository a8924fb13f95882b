# expect: pass chains samples, each measurement's start read being the previous one's end read: the log still has one work() and a sync() between two clock reads per measurement, as the prompt's step 2 orders, and only the loop's own bookkeeping sits between samples; the checker's tests already pass this form (test_time_fn_alternatives_pass's chained)
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = []
    last = clock()
    for _ in range(repeats):
        work()
        sync()
        now = clock()
        samples.append(now - last)  # the previous end is this call's start
        last = now
    return statistics.median(samples)


answer = time_fn
