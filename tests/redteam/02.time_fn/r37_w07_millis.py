# expect: fail returns milliseconds where seconds are asked
# hint: (second|milli|\bms\b|unit|1e3|1000)
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    ms = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        ms.append((clock() - start) * 1e3)
    return statistics.median(ms)
