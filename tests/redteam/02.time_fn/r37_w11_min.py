# expect: fail returns the fastest call (min) rather than the median
# hint: (median|min|fastest|best)
# name: time_fn
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        best = min(best, clock() - t0)
    return best
