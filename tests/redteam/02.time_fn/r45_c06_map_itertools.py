# expect: pass map over itertools.repeat with a nested helper and float() of the median
# hint: 
import itertools
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def measure(job):
        t = clock()
        job()
        sync()
        return clock() - t

    work()
    sync()
    return float(statistics.median(map(measure, itertools.repeat(work, repeats))))


answer = time_fn
