# expect: fail keeps the times in a module-level list, so earlier calls' times leak into later medians
# hint: state|previous|earlier|accumulat|between calls|across calls|fresh|reset|global|leak|other call
import statistics
import time

_times = []  # per-call times


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        _times.append(clock() - start)
    return statistics.median(_times)


answer = time_fn
