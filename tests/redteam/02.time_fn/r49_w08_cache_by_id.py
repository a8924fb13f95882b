# expect: fail memoizes the median by id(work); a new work whose id was reused gets a stale time
# hint: state|cache|previous|earlier|stale|between calls|reuse|memo
import statistics
import time

_measured = {}  # id(work) -> median: no need to time the same work twice


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    key = (id(work), repeats)
    if key in _measured:
        return _measured[key]
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    _measured[key] = statistics.median(times)
    return _measured[key]


answer = time_fn
