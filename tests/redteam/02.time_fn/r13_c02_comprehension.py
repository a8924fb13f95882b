# expect: pass list comprehension over a helper that times one call
# hint: 
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def once():
        begin = clock()
        work()
        sync()
        return clock() - begin

    work(), sync()  # warm-up: one-off costs paid before any clock read
    return statistics.median([once() for _ in range(repeats)])


answer = time_fn
