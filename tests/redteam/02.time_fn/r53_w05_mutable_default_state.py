# expect: fail times kept in a mutable default list, so later calls take the median of earlier calls' times too
# hint: previous|earlier|state|across|second call|again|accumul|median
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
