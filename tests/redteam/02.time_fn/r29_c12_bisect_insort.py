# expect: pass keeps the samples sorted with bisect.insort in a while loop, then statistics.median
# hint: 
import bisect
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    ordered = []
    while len(ordered) < repeats:
        before = clock()
        work()
        sync()
        after = clock()
        bisect.insort(ordered, after - before)
    return statistics.median(ordered)


answer = time_fn
