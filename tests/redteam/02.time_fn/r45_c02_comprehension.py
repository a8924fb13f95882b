# expect: pass closure for one timed call, list comprehension over repeats
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def once():
        start = clock()
        work()
        sync()
        return clock() - start

    work()  # warm-up
    sync()
    return statistics.median([once() for _ in range(repeats)])


answer = time_fn
