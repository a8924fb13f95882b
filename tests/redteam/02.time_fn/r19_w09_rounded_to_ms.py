# expect: fail rounds the result to 3 decimals (whole milliseconds), so a sub-millisecond call reports 0.0
# hint: round|precision|decimal|resolution|zero|0\.0|millisecond
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return round(statistics.median(times), 3)  # no false precision


answer = time_fn
