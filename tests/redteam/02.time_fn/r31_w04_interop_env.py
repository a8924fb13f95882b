# expect: fail sets os.environ["OMP_NUM_THREADS"] inside time_fn and leaves it changed
# hint: environ|OMP_NUM_THREADS|environment
import os
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    os.environ["OMP_NUM_THREADS"] = "1"  # steadier timings
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
