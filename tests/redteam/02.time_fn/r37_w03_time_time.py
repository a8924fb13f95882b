# expect: fail uses time.time() instead of the clock it is given
# hint: (clock|time\.time|perf_counter)
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    durations = []
    for _ in range(repeats):
        started = time.time()
        work()
        sync()
        durations.append(time.time() - started)
    return statistics.median(durations)
