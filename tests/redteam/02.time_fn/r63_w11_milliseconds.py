# expect: fail returns milliseconds instead of seconds
# hint: second|milli|ms|unit|1e3|1000|scale
# Wrong: the prompt asks for the median SECONDS per call; multiplying by 1e3 makes a 2 ms
# job read as 2.0, a thousand times too long.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times_ms = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times_ms.append((clock() - start) * 1e3)
    return statistics.median(times_ms)
