# expect: fail calls work() twice per measurement and halves the time
# hint: 2 times between two clock reads|each call on its own
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        work()  # two calls per sample average out the clock's resolution
        sync()
        times.append((clock() - start) / 2)
    return statistics.median(times)


answer = time_fn
