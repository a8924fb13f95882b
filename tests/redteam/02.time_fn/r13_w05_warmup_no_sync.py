# expect: fail warm-up calls work() but never sync()s, so its job runs into the first measurement
# hint: warm|sync|wait
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
