# expect: fail start clock read once before the loop: the times are cumulative, not per call
# hint: per.call|cumulat|each call|start|running total|since the first|elapsed
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    start = clock()
    for _ in range(repeats):
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
