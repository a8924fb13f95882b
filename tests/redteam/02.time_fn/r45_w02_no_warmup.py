# expect: fail no warm-up call before the first clock read
# hint: warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
