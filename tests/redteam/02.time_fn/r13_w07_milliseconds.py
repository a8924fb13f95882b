# expect: fail returns milliseconds instead of seconds
# hint: second|unit|milli|\bms\b|1000|1e3|scale|factor
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
        times_ms.append((clock() - start) * 1e3)
    return statistics.median(times_ms)


answer = time_fn
