# expect: fail calls work() twice per measurement and halves the time (not one call per measurement)
# hint: call|once|twice|count|times|work\(\)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()  # two calls per sample halve the clock's relative resolution error
        work()
        sync()
        times.append((clock() - start) / 2)
    return statistics.median(times)


answer = time_fn
