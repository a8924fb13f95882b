# expect: fail returns the fastest call (min) instead of the median
# hint: median|min
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        best = min(best, clock() - start)
    return best


answer = time_fn
