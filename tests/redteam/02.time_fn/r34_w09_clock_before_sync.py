# expect: fail second clock read taken before sync() (sync after the read)
# hint: sync.*(before|clock)|clock.*sync
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        stop = clock()
        sync()  # wait before the next measurement
        times.append(stop - start)
    return statistics.median(times)


answer = time_fn
