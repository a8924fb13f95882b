# expect: fail returns milliseconds instead of seconds
# hint: second|milli|\bms\b|1e3|1000|unit
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append((clock() - start) * 1e3)  # in ms, easier to read
    return statistics.median(times)


answer = time_fn
