# expect: fail returns the fastest time (timeit's advice) instead of the median
# hint: median|min|least|fastest|smallest
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        # timeit's docs: other programs can only add time, so the minimum is the truest
        best = min(best, clock() - start)
    return best


answer = time_fn
