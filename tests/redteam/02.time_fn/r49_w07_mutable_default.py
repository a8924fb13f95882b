# expect: fail mutable default list keeps times from earlier calls; the median mixes old works' times
# hint: state|previous|earlier|accumul|between calls|persist|leftover|other call|stale
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5, _times=[]):  # noqa: B006
    work()
    sync()
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        _times.append(clock() - start)
    return statistics.median(_times)


answer = time_fn
