# expect: fail sync() placed before work() instead of after it: second clock read still only times the launch
# hint: sync
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        sync()
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
