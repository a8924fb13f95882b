# expect: fail no sync() between work() and the second clock read (times the launch)
# hint: sync
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        times.append(clock() - start)
    sync()
    return statistics.median(times)


answer = time_fn
