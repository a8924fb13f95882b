# expect: fail wrong default: repeats=3 instead of 5
# hint: default|repeat|signature|measurement|how many|number of|count|calls
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=3):
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
