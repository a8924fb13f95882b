# expect: fail returns the fastest (min) per-call time, not the median
# hint: median|min|fastest|least|smallest
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
    return min(times)  # another program can only add time: keep the fastest


answer = time_fn
