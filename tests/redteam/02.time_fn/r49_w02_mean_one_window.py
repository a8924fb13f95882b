# expect: fail one clock window around all repeats: the mean per call, not the median
# hint: median|mean|average
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    start = clock()
    for _ in range(repeats):
        work()
        sync()
    return (clock() - start) / repeats  # per call, averaged over the repeats


answer = time_fn
