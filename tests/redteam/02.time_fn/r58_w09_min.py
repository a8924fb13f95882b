# expect: fail returns the fastest (minimum) time instead of the median
# hint: median|min|fastest|best|least
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
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
