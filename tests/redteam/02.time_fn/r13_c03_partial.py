# expect: pass functools.partial of a general timer with the statistic bound to median
# hint: 
import functools
import statistics
import time


def _timer(work, sync, clock=time.perf_counter, repeats=5, *, statistic=statistics.mean):
    work()
    sync()
    per_call = []
    for _ in range(repeats):
        t = clock()
        work()
        sync()
        per_call.append(clock() - t)
    return statistic(per_call)


time_fn = functools.partial(_timer, statistic=statistics.median)
answer = time_fn
