# expect: fail returns milliseconds per call, not seconds
# hint: second|unit|ms\b|1e3|1000|milli
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times_ms = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times_ms.append((clock() - start) * 1e3)  # ms: easier to read
    return statistics.median(times_ms)


answer = time_fn
