# expect: pass functools.partial of a generic timer with statistics.median as the reducer
# hint: 
import functools
import statistics
import time


def _timer(reduce, work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    samples = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        t1 = clock()
        samples.append(t1 - t0)
    return reduce(samples)


time_fn = functools.partial(_timer, statistics.median)
answer = time_fn
