# expect: pass a generator yields one sample per measurement; statistics.median consumes it
# hint: 
import statistics
import time


def _samples(work, sync, clock, repeats):
    for _ in range(repeats):
        start = clock()
        work()
        sync()  # wait for the work before the second read
        yield clock() - start


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()  # warm-up: one-off costs, not timed
    sync()
    return statistics.median(_samples(work, sync, clock, repeats))


answer = time_fn
