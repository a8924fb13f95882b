# expect: fail no sync() in the timed loop: measures the launch, not the work
# hint: sync|synchron|launch
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
