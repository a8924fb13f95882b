# expect: fail assumes the clock counts nanoseconds (default perf_counter_ns) and divides by 1e9; wrong with a clock in seconds
# hint: clock|unit|second|nano|\bns\b|1e9|scale
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter_ns, repeats=5):
    # integer nanoseconds: no float rounding in the differences
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times) / 1e9


answer = time_fn
