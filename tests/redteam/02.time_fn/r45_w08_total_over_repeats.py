# expect: fail one clock pair around all repeats, divided by repeats: a mean, not a median of per-call times
# hint: median|mean|outlier|per.call
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    start = clock()
    for _ in range(repeats):
        work()
    sync()
    return (clock() - start) / repeats


answer = time_fn
