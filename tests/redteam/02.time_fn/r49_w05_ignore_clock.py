# expect: fail reads time.perf_counter directly instead of the clock it is given
# hint: clock
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    now = time.perf_counter  # the most precise clock there is
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = now()
        work()
        sync()
        times.append(now() - start)
    return statistics.median(times)


answer = time_fn
