# expect: pass timeit.repeat with the given clock as timer, number=1, a work-then-sync statement
# hint: 
import statistics
import time
import timeit


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()

    def one_call():
        work()
        sync()

    samples = timeit.repeat(one_call, timer=clock, repeat=repeats, number=1)
    return statistics.median(samples)


answer = time_fn
