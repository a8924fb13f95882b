# expect: fail syncs before the start read but not after work(): the end read comes right after the launch
# hint: sync|synchron|launch
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        sync()  # make sure the queue is empty...
        start = clock()
        work()
        times.append(clock() - start)  # ...but the work itself is not waited for
    return statistics.median(times)


answer = time_fn
