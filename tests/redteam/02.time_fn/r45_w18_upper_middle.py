# expect: fail median as sorted(times)[n // 2]: the upper middle one for an even number of repeats
# hint: median|middle|even
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return sorted(times)[len(times) // 2]


answer = time_fn
