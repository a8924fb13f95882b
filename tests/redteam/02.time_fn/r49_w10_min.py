# expect: fail returns the minimum (timeit's advice), not the median
# hint: median|min|fastest|least|smallest
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    best = float("inf")
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        best = min(best, clock() - start)  # noise only adds time: the fastest run is the truth
    return best


answer = time_fn
