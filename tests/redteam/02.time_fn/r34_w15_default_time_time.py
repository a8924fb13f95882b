# expect: fail default clock changed to time.time (coarse wall clock)
# hint: perf_counter|default
import statistics
import time


def time_fn(work, sync, clock=time.time, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
