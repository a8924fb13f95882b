# expect: fail ignores the clock argument and reads time.perf_counter directly
# hint: clock
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


answer = time_fn
