# expect: fail the warm-up call is timed and its slow time enters the median
# hint: warm
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats + 1):  # the first one doubles as the warm-up
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
