# expect: pass closure for one measurement, median of a generator expression
# hint:
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def once():
        t = clock()
        work()
        sync()
        return clock() - t

    work(), sync()  # warm-up, drained before any clock read
    return statistics.median(once() for _ in range(repeats))
