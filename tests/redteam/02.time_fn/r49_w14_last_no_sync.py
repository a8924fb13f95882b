# expect: fail skips sync() in the last measurement (no next call to wait for), so one sample is the launch only
# hint: sync|synchron
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for i in range(repeats):
        start = clock()
        work()
        if i < repeats - 1:  # the next start waits anyway; the last one has nothing after it
            sync()
        times.append(clock() - start)
    sync()  # leave the queue empty for the caller
    return statistics.median(times)


answer = time_fn
