# expect: fail reads the clock before the warm-up (to calibrate clock overhead) and subtracts that overhead from every time
# hint: before (any|the first) clock|clock read|warm.?up.{0,40}(before|first)|overhead|subtract|calibrat
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), minus the cost of reading the clock."""
    empty = []
    for _ in range(repeats):
        t = clock()
        empty.append(clock() - t)
    overhead = statistics.median(empty)
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start - overhead)
    return statistics.median(times)


answer = time_fn
