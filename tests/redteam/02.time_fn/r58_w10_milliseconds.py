# expect: fail returns milliseconds instead of seconds
# hint: seconds|unit|milli|\bms\b|1e3|1000
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times_ms = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times_ms.append((clock() - start) * 1e3)
    return statistics.median(times_ms)


answer = time_fn
